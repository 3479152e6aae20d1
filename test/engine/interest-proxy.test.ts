/**
 * Interest income from a net non-operating proxy (docs/frameworks/README.md, "Proxies and
 * estimates"): a filer that reports interest income nowhere apart gives only a net non-operating
 * line, which nets other gains and losses and bounds interest income neither way. The income
 * limits that count interest (AAOIFI here) can then neither pass nor, on the interest alone, fail.
 */
import { describe, expect, it } from 'vitest';
import { screenCompany, type ScreeningInput } from '../../engine/index.ts';
import type { Reason } from '../../engine/result-types.ts';
import { baseInput } from './fixtures.ts';

const PROXY_SOURCE =
  'us-gaap:OtherNonoperatingIncomeExpense @ 0000097476-20-000057 (proxy: net non-operating income (interest income not reported apart))';
const INTEREST_SOURCE = 'us-gaap:InvestmentIncomeInterest @ 0000097476-20-000057';

/** Revenue 5,000; AAOIFI's limit on non-permissible income is 5% of it (250). */
function screened(interestIncome: number, source: string, alcoholShare = 0): { reason: Reason; status: string } {
  const input: ScreeningInput = baseInput();
  input.fundamentals = { ...input.fundamentals!, interestIncome, figureSources: { interest_income: source } };
  if (alcoholShare > 0)
    input.exposures = [
      { activity: 'alcohol', revenueShare: alcoholShare, asOf: '2025-03-31', sourceRef: 'vendor-1', involvement: 'retailer' },
    ];
  const aaoifi = screenCompany(input).frameworks.shariah_aaoifi!;
  return { reason: aaoifi.reasons.find((r) => r.code === 'shariah_aaoifi.non_permissible_income')!, status: aaoifi.status };
}

describe('interest income from a net non-operating proxy', () => {
  it('when the proxy puts income far under the limit, then the check is questionable (doubt: proxy), not a pass', () => {
    const { reason, status } = screened(50, PROXY_SOURCE);
    expect(reason).toMatchObject({ result: 'questionable', doubt: 'proxy', value: 0.01 });
    expect(reason.message).toContain('net non-operating income stands in for it');
    expect(status).toBe('questionable');
  });

  it('when the same figure is reported as interest income proper, then the check passes', () => {
    expect(screened(50, INTEREST_SOURCE).reason).toMatchObject({ result: 'pass', value: 0.01 });
  });

  it('when only the proxied interest takes income over the limit, then the breach is questionable, not certain', () => {
    expect(screened(300, PROXY_SOURCE).reason).toMatchObject({ result: 'questionable', doubt: 'proxy', value: 0.06 });
    // 4% proxied interest + 2% alcohol: over 5% only with the proxy.
    expect(screened(200, PROXY_SOURCE, 0.02).reason).toMatchObject({ result: 'questionable', doubt: 'proxy' });
  });

  it('when the prohibited revenue breaches the limit without any interest, then the check fails whatever the proxy says', () => {
    const { reason } = screened(50, PROXY_SOURCE, 0.06);
    expect(reason.result).toBe('fail');
    expect(reason.doubt).toBeUndefined();
  });

  it('when prohibited revenue without interest is exactly at the limit, then it is within it and the proxied breach stays in doubt', () => {
    // AAOIFI: non-permissible income must not exceed 5%, so 5.00% alone is within the limit.
    expect(screened(50, PROXY_SOURCE, 0.05).reason).toMatchObject({ result: 'questionable', doubt: 'proxy' });
  });
});

describe('purification amounts on a net non-operating proxy', () => {
  function purificationOf(source: string) {
    const input: ScreeningInput = baseInput();
    input.fundamentals = { ...input.fundamentals!, interestIncome: 50, figureSources: { interest_income: source } };
    return screenCompany(input);
  }

  it('when interest income is the proxy, then every purification says its amounts are estimates either way, and keeps them', () => {
    const result = purificationOf(PROXY_SOURCE);
    const headline = result.purification!;
    expect(headline.proxy).toMatch(/^an estimate: interest income is not reported apart; .*may be too low as well as too high$/);
    expect(headline.non_permissible_income_ratio).toBeGreaterThan(0);
    for (const id of ['shariah_aaoifi', 'shariah_djim', 'shariah_sp', 'shariah_ftse', 'shariah_msci'] as const) {
      const purification = result.frameworks[id]!.purification!;
      expect(purification.proxy).toBe(headline.proxy);
      expect(purification.non_permissible_income_ratio).toBe(headline.non_permissible_income_ratio);
    }
  });

  it('when interest income is reported as such, then no purification carries a proxy note', () => {
    const result = purificationOf(INTEREST_SOURCE);
    expect(result.purification).not.toHaveProperty('proxy');
    expect(result.frameworks.shariah_aaoifi!.purification).not.toHaveProperty('proxy');
  });
});
