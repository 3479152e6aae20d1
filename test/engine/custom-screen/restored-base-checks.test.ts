import { describe, expect, it } from 'vitest';
import { compactResult } from '../../../activities/snapshot-rows.ts';
import { applyCustomScreen } from '../../../engine/custom-screen/apply-custom-screen.ts';
import type { CustomScreenDefinition, CustomScreenVersion } from '../../../engine/custom-screen/custom-screen-types.ts';
import { screenCompany, type ScreeningResult } from '../../../engine/index.ts';
import { inputWith } from '../fixtures.ts';

const versionOf = (thresholds: Record<string, number>, base: CustomScreenDefinition['base'] = 'shariah_aaoifi'): CustomScreenVersion => ({
  slug: 'mandate',
  version: 2,
  effectiveFrom: '2025-01-01',
  definition: { base, description: '', activities: [], excludedTickers: [], allowedTickers: [], thresholds },
});

/** The layer's reason on `metric`, computed over the compact result a backfill stores. */
function onCompact(stored: ScreeningResult, thresholds: Record<string, number>, base: CustomScreenDefinition['base'] = 'shariah_aaoifi') {
  const out = applyCustomScreen(compactResult(stored), base, 'mandate', versionOf(thresholds, base), 'us/BASE', 'deciding');
  return { out, custom: out.reasons.filter((r) => r.origin === 'custom') };
}

describe("a stricter limit over a backfilled snapshot's compact result", () => {
  // The base company: debt / market cap 0.10, interest / revenue 0.01, no prohibited revenue; AAOIFI passes it.
  const stored = screenCompany(inputWith({}));

  it('when the base passed the ratio, then the stored ratio decides the stricter limit, as the full result would', () => {
    expect(compactResult(stored).frameworks.shariah_aaoifi?.reasons.some((r) => r.metric === 'debt_to_market_cap_spot')).toBe(false);
    for (const limit of [0.05, 0.2]) {
      const { out, custom } = onCompact(stored, { debt_to_market_cap_spot: limit });
      const full = applyCustomScreen(stored, 'shariah_aaoifi', 'mandate', versionOf({ debt_to_market_cap_spot: limit }), 'us/BASE');
      expect(out.status).toBe(full.status);
      expect(custom[0]).toMatchObject({
        result: limit === 0.05 ? 'fail' : 'pass',
        value: 0.1,
        threshold: limit,
        filing_ref: 'acc-base-10q',
        origin: 'custom',
      });
      expect(custom[0]!.message).toMatch(/stricter than the base.s 30\.00%\).*The figure is the snapshot's stored ratio/);
    }
  });

  it("when the purification's ratio bounds the income share within the stricter limit, then it passes without a value", () => {
    const { custom } = onCompact(stored, { non_permissible_income_to_total_income: 0.02 });
    expect(custom[0]).toMatchObject({ result: 'pass', within_limit: true, threshold: 0.02 });
    expect(custom[0]!.value).toBeUndefined();
    expect(custom[0]!.message).toMatch(/at most 1\.00%, within the limit.*bounds the figure from above/);
  });

  it('when the bound is beyond the stricter limit, then the income check is insufficient_data naming the missing share, never a pass', () => {
    const { out, custom } = onCompact(stored, { non_permissible_income_to_total_income: 0.005 });
    expect(custom[0]).toMatchObject({ result: 'insufficient_data', metric: 'non_permissible_income_to_total_income' });
    expect(custom[0]!.message).toMatch(/does not keep the non-permissible income share/);
    expect(out.status).toBe('insufficient_data');
  });

  it('when the stored verdict was made under another methodology version, then nothing is restored: insufficient_data', () => {
    const compact = compactResult(stored);
    const aaoifi = compact.frameworks.shariah_aaoifi!;
    const renamed = { ...compact, frameworks: { ...compact.frameworks, shariah_aaoifi: { ...aaoifi, methodology_version: 'old-text' } } };
    const out = applyCustomScreen(renamed, 'shariah_aaoifi', 'mandate', versionOf({ debt_to_market_cap_spot: 0.2 }), 'us/BASE', 'deciding');
    expect(out.reasons.at(-1)).toMatchObject({ result: 'insufficient_data', origin: 'custom' });
    expect(out.reasons.at(-1)!.message).toMatch(/stored under shariah_aaoifi old-text/);
    expect(out.status).toBe('insufficient_data');
  });

  it('when the base kept its failing check, then that stored reason decides, as on a full result', () => {
    const failing = screenCompany(inputWith({ fundamentals: { totalDebt: 5000 } }));
    const { custom } = onCompact(failing, { debt_to_market_cap_spot: 0.2 });
    expect(custom[0]).toMatchObject({ result: 'fail', value: 0.5 });
    expect(custom[0]!.message).not.toMatch(/stored ratio/);
  });

  it('when the same compact result is read as if it kept every reason, then a dropped check is never restored (fail closed)', () => {
    const out = applyCustomScreen(
      compactResult(stored),
      'shariah_aaoifi',
      'mandate',
      versionOf({ debt_to_market_cap_spot: 0.2 }),
      'us/BASE',
    );
    expect(out.status).toBe('insufficient_data');
  });
});
