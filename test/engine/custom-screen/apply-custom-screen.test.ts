import { describe, expect, it } from 'vitest';
import { applyCustomScreen } from '../../../engine/custom-screen/apply-custom-screen.ts';
import { baseThresholds } from '../../../engine/custom-screen/base-thresholds.ts';
import type { CustomScreenDefinition, CustomScreenVersion } from '../../../engine/custom-screen/custom-screen-types.ts';
import { screenCompany, type ScreeningResult } from '../../../engine/index.ts';
import { inputWith } from '../fixtures.ts';

const EMPTY: CustomScreenDefinition = {
  base: 'shariah_aaoifi',
  description: '',
  activities: [],
  excludedTickers: [],
  allowedTickers: [],
  thresholds: {},
};

const versionOf = (definition: Partial<CustomScreenDefinition>, version = 1): CustomScreenVersion => ({
  slug: 'mandate',
  version,
  effectiveFrom: '2025-01-01',
  definition: { ...EMPTY, ...definition },
});

/** A company a vendor reports on (fresh rows: covered), with `coffee` revenue at `share`. */
function reported(coffee: number | null, involvement: string | null = null): ScreeningResult {
  const rows = [{ activity: 'alcohol', revenueShare: 0, asOf: '2025-03-31', sourceRef: 'vendor-1' }];
  if (coffee !== null)
    rows.push({ activity: 'coffee', revenueShare: coffee, asOf: '2025-03-31', sourceRef: 'vendor-1', involvement } as never);
  return screenCompany(inputWith({ exposures: rows }));
}

const customReasons = (r: ReturnType<typeof applyCustomScreen>) => r.reasons.filter((reason) => reason.origin === 'custom');

describe('a custom layer over a stored verdict', () => {
  it('when the base is compliant and the layer adds nothing that fails, then the verdict is compliant and names the version', () => {
    const stored = reported(0.02);
    expect(stored.frameworks.shariah_aaoifi?.status).toBe('compliant');
    const out = applyCustomScreen(
      stored,
      'shariah_aaoifi',
      'mandate',
      versionOf({ activities: [{ activity: 'coffee', maxRevenueShare: 0.05, excludedInvolvements: [] }] }, 3),
      'us/BASE',
    );
    expect(out).toMatchObject({ id: 'custom:mandate', base: 'shariah_aaoifi', base_status: 'compliant', status: 'compliant' });
    expect(out.custom_screen).toEqual({ slug: 'mandate', version: 3, effective_from: '2025-01-01' });
    expect(customReasons(out)).toEqual([expect.objectContaining({ code: 'custom.mandate.activity.coffee', result: 'pass', value: 0.02 })]);
    // Every base reason is kept and marked as the base's.
    expect(out.reasons.filter((r) => r.origin === 'base')).toHaveLength(stored.frameworks.shariah_aaoifi!.reasons.length);
  });

  it("when an activity the base allows is beyond the layer's limit, then the verdict is non_compliant on the custom reason alone", () => {
    const out = applyCustomScreen(
      reported(0.08),
      'shariah_aaoifi',
      'mandate',
      versionOf({ activities: [{ activity: 'coffee', maxRevenueShare: 0.05, excludedInvolvements: [] }] }),
      'us/BASE',
    );
    expect(out.base_status).toBe('compliant');
    expect(out.status).toBe('non_compliant');
    const [reason] = customReasons(out);
    expect(reason).toMatchObject({ result: 'fail', value: 0.08, threshold: 0.05, within_limit: false, origin: 'custom' });
    expect(reason!.message).toContain('custom:mandate v1');
  });

  it('when an excluded involvement is named and the involvement is not reported, then the conservative default is questionable', () => {
    const rule = { activity: 'coffee' as const, maxRevenueShare: 0.5, excludedInvolvements: ['producer' as const] };
    expect(applyCustomScreen(reported(0.1), 'shariah_aaoifi', 'mandate', versionOf({ activities: [rule] }), 'us/BASE').status).toBe(
      'questionable',
    );
    expect(
      applyCustomScreen(reported(0.1, 'producer'), 'shariah_aaoifi', 'mandate', versionOf({ activities: [rule] }), 'us/BASE').status,
    ).toBe('non_compliant');
    expect(
      applyCustomScreen(reported(0.1, 'retailer'), 'shariah_aaoifi', 'mandate', versionOf({ activities: [rule] }), 'us/BASE').status,
    ).toBe('compliant');
  });

  it("when nothing covers the company's activities, then a custom exclusion is never a clean compliant", () => {
    // No exposure rows and a SIC code outside the reviewed table: no evidence at all.
    const bare = screenCompany(inputWith({ listing: { sic: null } }));
    const out = applyCustomScreen(
      bare,
      'shariah_aaoifi',
      'mandate',
      versionOf({ activities: [{ activity: 'coffee', maxRevenueShare: 0, excludedInvolvements: [] }] }),
      'us/BASE',
    );
    expect(out.status).not.toBe('compliant');
    expect(customReasons(out)[0]).toMatchObject({ result: 'insufficient_data', evidence_level: 'none' });
  });

  it('when only the industry code covers the company, then a custom exclusion is questionable, not a pass', () => {
    const classed = screenCompany(inputWith({}));
    const out = applyCustomScreen(
      classed,
      'shariah_aaoifi',
      'mandate',
      versionOf({ activities: [{ activity: 'coffee', maxRevenueShare: 0, excludedInvolvements: [] }] }),
      'us/BASE',
    );
    expect(customReasons(out)[0]).toMatchObject({ result: 'questionable', doubt: 'ambiguous_evidence', evidence_level: 'industry_code' });
  });

  it('when the stored verdict keeps only deciding reasons, then an unreported activity is insufficient_data', () => {
    const stored = reported(null);
    const compact = { ...stored, frameworks: { shariah_aaoifi: { ...stored.frameworks.shariah_aaoifi!, reasons: [] } } };
    const out = applyCustomScreen(
      compact,
      'shariah_aaoifi',
      'mandate',
      versionOf({ activities: [{ activity: 'coffee', maxRevenueShare: 0, excludedInvolvements: [] }] }),
      'us/BASE',
    );
    expect(out.status).toBe('insufficient_data');
  });

  it("when a stricter limit is breached by the figure the base passed, then the custom reason fails beside the base's passing one", () => {
    // The base company's debt / market cap is 0.10: within AAOIFI's 30%, beyond a 5% mandate.
    const stored = screenCompany(inputWith({}));
    const out = applyCustomScreen(
      stored,
      'shariah_aaoifi',
      'mandate',
      versionOf({ thresholds: { debt_to_market_cap_spot: 0.05 } }),
      'us/BASE',
    );
    const base = out.reasons.find((r) => r.origin === 'base' && r.metric === 'debt_to_market_cap_spot');
    const custom = out.reasons.find((r) => r.origin === 'custom' && r.metric === 'debt_to_market_cap_spot');
    expect(base).toMatchObject({ result: 'pass', threshold: 0.3 });
    expect(custom).toMatchObject({ result: 'fail', threshold: 0.05, value: 0.1, within_limit: false });
    expect(out.status).toBe('non_compliant');
  });

  it("when an exclusion table's revenue limit is tightened, then a share the base allows fails, and an activity none reports passes on the evidence", () => {
    const stored = screenCompany(
      inputWith({ exposures: [{ activity: 'alcohol', revenueShare: 0.03, asOf: '2025-03-31', sourceRef: 'vendor-1' }] }),
    );
    expect(stored.frameworks.christian_bri?.status).not.toBe('non_compliant');
    const tighter = versionOf({ base: 'christian_bri', thresholds: { 'activity.alcohol': 0.02, 'activity.gambling': 0.01 } });
    const out = applyCustomScreen(stored, 'christian_bri', 'mandate', tighter, 'us/BASE');
    expect(customReasons(out).map((r) => [r.metric, r.result])).toEqual([
      ['activity.alcohol', 'fail'],
      ['activity.gambling', 'pass'],
    ]);
    expect(out.status).toBe('non_compliant');
  });

  it('when a ticker is excluded, then it fails; when allowed, then only the base decides', () => {
    const stored = reported(0.5);
    const rules = { activities: [{ activity: 'coffee' as const, maxRevenueShare: 0, excludedInvolvements: [] }] };
    expect(applyCustomScreen(stored, 'shariah_aaoifi', 'mandate', versionOf({ excludedTickers: ['us/BASE'] }), 'us/BASE').status).toBe(
      'non_compliant',
    );
    const allowed = applyCustomScreen(stored, 'shariah_aaoifi', 'mandate', versionOf({ ...rules, allowedTickers: ['us/BASE'] }), 'us/BASE');
    expect(allowed.status).toBe(stored.frameworks.shariah_aaoifi!.status);
    expect(customReasons(allowed).map((r) => r.code)).toEqual(['custom.mandate.ticker_allowed']);
  });

  it('when the base is non_compliant, then the custom verdict never improves on it', () => {
    const failing = screenCompany(inputWith({ fundamentals: { totalDebt: 5000 } }));
    expect(failing.frameworks.shariah_aaoifi?.status).toBe('non_compliant');
    expect(applyCustomScreen(failing, 'shariah_aaoifi', 'mandate', versionOf({ allowedTickers: ['us/BASE'] }), 'us/BASE').status).toBe(
      'non_compliant',
    );
  });

  it('when no version is in force on the screening date, then the verdict is insufficient_data', () => {
    const out = applyCustomScreen(reported(0), 'shariah_aaoifi', 'mandate', null, 'us/BASE');
    expect(out.status).toBe('insufficient_data');
    expect(out.custom_screen).toEqual({ slug: 'mandate', version: null, effective_from: null });
  });
});

describe('the limits a custom screen may tighten', () => {
  it('names each Shariah ratio and income limit, and each exclusion-table share limit', () => {
    const aaoifi = baseThresholds('shariah_aaoifi', '2026-01-01');
    expect(aaoifi.get('debt_to_market_cap_spot')).toMatchObject({ threshold: 0.3, operator: '<=' });
    expect(aaoifi.get('non_permissible_income_to_total_income')).toMatchObject({ threshold: 0.05 });
    expect(baseThresholds('lds_mormon', '2026-01-01').size).toBeGreaterThan(0);
  });
});
