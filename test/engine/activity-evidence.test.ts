/**
 * Business-activity evidence: absence of evidence is not evidence of absence. A company with no
 * exposure rows, no review, no curated entry and no SIC code never passes a business screen; a
 * SIC code that names a screened activity is evidence of it; a clean SIC code or a review is a
 * pass that says what it rests on.
 */
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_IDS, screenCompany, type FrameworkId, type ScreeningInput } from '../../engine/index.ts';
import { activityOfSic } from '../../engine/industry-codes.ts';
import { inputWith } from './fixtures.ts';

const BUSINESS_FRAMEWORKS: readonly FrameworkId[] = FRAMEWORK_IDS.filter((id) => id !== 'service_consensus');

function statuses(input: ScreeningInput): Record<string, string> {
  const r = screenCompany(input);
  return Object.fromEntries(Object.entries(r.frameworks).map(([id, f]) => [id, f.status]));
}

function businessReasons(input: ScreeningInput, id: FrameworkId) {
  return screenCompany(input).frameworks[id]!.reasons.filter((r) => r.metric?.startsWith('activity.'));
}

describe('business-activity evidence', () => {
  it('when nothing at all covers the company (no rows, no review, no SIC), then no framework is compliant and the reason says what is missing', () => {
    const input = inputWith({ listing: { sic: null } });
    const s = statuses(input);
    for (const id of FRAMEWORK_IDS) expect(s[id], id).not.toBe('compliant');
    for (const id of ['shariah_aaoifi', 'christian_bri', 'catholic_usccb', 'lds_mormon'] as const) {
      const none = businessReasons(input, id).find((r) => r.code.endsWith('none_reported'));
      expect(none?.result, id).toBe('insufficient_data');
      expect(none?.evidence_level).toBe('none');
      expect(none?.message).toMatch(/no exposure rows.*no SIC code.*Absence of evidence is not evidence of absence/);
    }
  });

  it('when the SIC code is a clean industry class and no row reports an activity, then business screens pass and say the evidence is the industry code', () => {
    const input = inputWith({ listing: { sic: '3560' } });
    expect(statuses(input).shariah_aaoifi).toBe('compliant');
    const none = businessReasons(input, 'christian_bri').find((r) => r.code.endsWith('none_reported'))!;
    expect(none.result).toBe('pass');
    expect(none.evidence_level).toBe('industry_code');
    expect(none.message).toContain('industry code only: SIC 3560');
  });

  it('when the SIC code names a bank and no row reports finance, then every Shariah methodology excludes it as a primary business', () => {
    const input = inputWith({ listing: { sic: '6022' } });
    const s = statuses(input);
    for (const id of ['shariah_aaoifi', 'shariah_djim', 'shariah_sp', 'shariah_ftse', 'shariah_msci'] as const)
      expect(s[id], id).toBe('non_compliant');
    const r = businessReasons(input, 'shariah_aaoifi').find((x) => x.code === 'shariah_aaoifi.business.conventional_finance')!;
    expect(r).toMatchObject({ result: 'fail', within_limit: false, filing_ref: 'sic:6022' });
    expect(r.message).toContain('primary business by industry code (SIC 6022, banks');
  });

  it('when the SIC code names a cigarette maker, then the faith exclusion tables that bar tobacco exclude it', () => {
    const s = statuses(inputWith({ listing: { sic: '2111' } }));
    expect(s.christian_bri).toBe('non_compliant');
    expect(s.lds_mormon).toBe('non_compliant');
    expect(s.catholic_usccb).toBe('non_compliant');
  });

  it('when a row reports the activity the SIC code names, then the reported share decides, not the code', () => {
    const input = inputWith({
      listing: { sic: '2082' },
      exposures: [{ activity: 'alcohol', revenueShare: 0.01, asOf: '2025-03-31', sourceRef: 'vendor-1' }],
    });
    const r = businessReasons(input, 'shariah_aaoifi').find((x) => x.code === 'shariah_aaoifi.business.alcohol')!;
    expect(r).toMatchObject({ result: 'pass', value: 0.01, filing_ref: 'vendor-1' });
  });

  it('when the clean industry class commonly includes a screened activity (restaurants: pork, alcohol), then the pass is questionable and names the doubt', () => {
    const input = inputWith({ listing: { sic: '5812' } });
    const none = businessReasons(input, 'shariah_aaoifi').find((r) => r.code.endsWith('none_reported'))!;
    expect(none).toMatchObject({ result: 'questionable', evidence_level: 'industry_code' });
    expect(none.message).toMatch(
      /No fresh figure reports pork or alcohol revenue, and the company's industry \(SIC 5812, retail-eating places\) may carry it/,
    );
    expect(statuses(input).shariah_aaoifi).toBe('questionable');
    // USCCB screens neither pork nor alcohol: the restaurant class leaves it no doubt.
    expect(statuses(input).catholic_usccb).toBe('compliant');
  });

  it('when a packaged-food maker is classed in canned and frozen specialties (SIC 2030), then its pass is questionable for pork wherever pork is screened', () => {
    // Kraft Heinz (SIC 2030) sells Oscar Mayer cold cuts and bacon; no concept reports their share.
    const input = inputWith({ listing: { sic: '2030' } });
    const none = businessReasons(input, 'shariah_ftse').find((r) => r.code.endsWith('none_reported'))!;
    expect(none).toMatchObject({ result: 'questionable', evidence_level: 'industry_code' });
    expect(none.message).toMatch(
      /No fresh figure reports pork revenue, and the company's industry \(SIC 2030, canned, frozen and preserved fruit, vegetables and food specialties\) may carry it/,
    );
    for (const id of ['shariah_aaoifi', 'shariah_djim', 'shariah_sp', 'shariah_ftse', 'shariah_msci'] as const)
      expect(statuses(input)[id], id).toBe('questionable');
    // Neither the next class up (2040, grain mill products) nor the end of the range leaves doubt.
    expect(statuses(inputWith({ listing: { sic: '2040' } })).shariah_ftse).toBe('compliant');
    expect(statuses(inputWith({ listing: { sic: '2038' } })).shariah_ftse).toBe('questionable');
    expect(statuses(inputWith({ listing: { sic: '2000' } })).shariah_ftse).toBe('questionable');
  });

  it('when a source reviewed the company recently and found no screened activity, then business screens pass on the review', () => {
    const input = inputWith({ listing: { sic: null }, activitiesReviewedOn: '2025-01-15' });
    expect(statuses(input).shariah_aaoifi).toBe('compliant');
    const none = businessReasons(input, 'lds_mormon').find((r) => r.code.endsWith('none_reported'))!;
    expect(none).toMatchObject({ result: 'pass', evidence_level: 'reviewed' });
    expect(none.message).toContain('reviewed on 2025-01-15');
  });

  it('when the only review is older than the exposure staleness limit, then it no longer covers the company', () => {
    const input = inputWith({ listing: { sic: null }, activitiesReviewedOn: '2021-01-15' });
    for (const id of BUSINESS_FRAMEWORKS) expect(statuses(input)[id], id).not.toBe('compliant');
  });

  it('when only a filing concept reports an activity a framework does not screen, then the other activities are still uncovered', () => {
    const input = inputWith({
      listing: { sic: null },
      exposures: [
        {
          activity: 'media_entertainment',
          revenueShare: 0.6,
          asOf: '2025-03-01',
          sourceRef: 'edgar:acc us-gaap:AdmissionsRevenue',
          evidence: 'filing_concept',
        },
      ],
    });
    expect(statuses(input).shariah_aaoifi).toBe('insufficient_data');
  });

  it('when a vendor reports some exposure for the company, then unreported activities count as none (the vendor covers it)', () => {
    const input = inputWith({
      listing: { sic: null },
      exposures: [{ activity: 'alcohol', revenueShare: 0.001, asOf: '2025-03-01', sourceRef: 'vendor-2' }],
    });
    expect(statuses(input).shariah_aaoifi).toBe('compliant');
  });

  it('when a curated gambling share is the primary business, then it is excluded everywhere gambling is screened, and the reason names the evidence', () => {
    const input = inputWith({
      listing: { sic: null },
      exposures: [{ activity: 'gambling', revenueShare: 0.53, asOf: '2025-02-01', sourceRef: 'curated: 10-K 2024', evidence: 'curated' }],
      activitiesReviewedOn: '2025-02-01',
    });
    const s = statuses(input);
    for (const id of [
      'shariah_aaoifi',
      'shariah_djim',
      'shariah_sp',
      'shariah_ftse',
      'shariah_msci',
      'christian_bri',
      'catholic_usccb',
      'lds_mormon',
    ] as const) {
      expect(s[id], id).toBe('non_compliant');
    }
    const r = businessReasons(input, 'shariah_sp').find((x) => x.code === 'shariah_sp.business.gambling')!;
    expect(r.message).toContain('(curated estimate)');
  });
});

describe('industry codes', () => {
  it('when a code is in a screened class, then the class is named; malformed and unknown codes are not', () => {
    expect(activityOfSic('6022')?.activity).toBe('conventional_finance');
    expect(activityOfSic('6331')?.activity).toBe('conventional_insurance');
    expect(activityOfSic('2085')?.activity).toBe('alcohol');
    expect(activityOfSic('2086')).toBeNull();
    expect(activityOfSic('3571')).toBeNull();
    expect(activityOfSic('60')).toBeNull();
    expect(activityOfSic(null)).toBeNull();
  });
});
