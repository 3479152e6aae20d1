/** When a debt figure is a proxy for interest-bearing debt (docs/frameworks/README.md, "Proxies and estimates"). */
import { describe, expect, it } from 'vitest';
import { debtIsTotalOnly, TOTAL_ONLY_DEBT_CONCEPTS } from '../../engine/proxies.ts';
import { DEBT } from '../../sources/edgar/edgar-concepts.ts';
import { screenCompany } from '../../engine/index.ts';
import { baseInput, inputWith } from './fixtures.ts';

const withDebtSource = (source: string | undefined) => {
  const f = baseInput().fundamentals!;
  return source === undefined ? f : { ...f, figureSources: { total_debt: source } };
};

describe('debt totals as proxies', () => {
  it("when the engine lists total-only debt concepts, then they are exactly the EDGAR adapter's totals", () => {
    expect([...TOTAL_ONLY_DEBT_CONCEPTS].sort()).toEqual(DEBT.total.flat().sort());
  });

  it('when the filing reports only a debt total, then the figure is a proxy', () => {
    expect(debtIsTotalOnly(withDebtSource('us-gaap:LongTermDebt @ 0000950170-25-000001'))).toBe(true);
    expect(
      debtIsTotalOnly(withDebtSource('us-gaap:DebtInstrumentCarryingAmount + us-gaap:ShortTermBorrowings @ 0000950170-25-000001')),
    ).toBe(true);
  });

  it('when the debt comes from borrowing lines, no source is recorded, or no filing, then it is not a proxy', () => {
    expect(debtIsTotalOnly(withDebtSource('us-gaap:LongTermDebtNoncurrent + us-gaap:DebtCurrent @ 0000950170-25-000001'))).toBe(false);
    expect(
      debtIsTotalOnly(
        withDebtSource('us-gaap:LongTermDebtCurrent + us-gaap:LongTermDebtNoncurrent @ 0000950170-25-000001 (LongTermDebt not added)'),
      ),
    ).toBe(false);
    expect(debtIsTotalOnly(withDebtSource(undefined))).toBe(false);
    expect(debtIsTotalOnly(null)).toBe(false);
  });
});

describe('breaches on a proxy, however far beyond the limit', () => {
  const aaoifi = (fundamentals: Record<string, unknown>) => {
    const result = screenCompany(inputWith({ fundamentals })).frameworks.shariah_aaoifi!;
    const reason = (code: string) => result.reasons.find((r) => r.code === `shariah_aaoifi.${code}`)!;
    return { status: result.status, reason };
  };

  it('when cash is 40% of market cap and no securities are held, then AAOIFI is questionable (proxy), not non_compliant', () => {
    const { status, reason } = aaoifi({ cashAndEquivalents: 4000, interestBearingInvestments: 0 });
    expect(status).toBe('questionable');
    expect(reason('interest_bearing_deposits')).toMatchObject({ result: 'questionable', doubt: 'proxy', near_limit: false, value: 0.4 });
    expect(reason('interest_bearing_deposits').message).toContain(
      'stand in for interest-bearing deposits, and the part certain to be the named figure is within the limit',
    );
  });

  it('when the interest-bearing investments alone breach, then the breach is decided however much cash there is', () => {
    const { status, reason } = aaoifi({ cashAndEquivalents: 1000, interestBearingInvestments: 3500 });
    expect(status).toBe('non_compliant');
    expect(reason('interest_bearing_deposits').result).toBe('fail');
    expect(reason('interest_bearing_deposits').doubt).toBeUndefined();
  });

  it('when a debt total alone is three times the limit, then AAOIFI is questionable (proxy) and says nothing of it is certain', () => {
    const { status, reason } = aaoifi({ totalDebt: 9000, figureSources: { total_debt: 'us-gaap:LongTermDebt @ 0000950170-25-000001' } });
    expect(status).toBe('questionable');
    expect(reason('interest_bearing_debt')).toMatchObject({ result: 'questionable', doubt: 'proxy', near_limit: false });
    expect(reason('interest_bearing_debt').message).toContain('no part of it is certain to be the named figure');
  });

  it('when the same debt comes from borrowing lines, then it is no proxy and the breach is decided', () => {
    const lines = { total_debt: 'us-gaap:LongTermDebtNoncurrent + us-gaap:DebtCurrent @ 0000950170-25-000001' };
    expect(aaoifi({ totalDebt: 9000, figureSources: lines }).status).toBe('non_compliant');
  });
});
