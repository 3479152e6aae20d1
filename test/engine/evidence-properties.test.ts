/**
 * Property tests over every table-driven framework (fast-check): no `compliant` verdict rests on
 * evidence too thin to defend — an industry code alone for an activity the code leaves in doubt,
 * a row outside its freshness window, or a stale spot price.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FRAMEWORK_IDS,
  screenCompany,
  type ActivityCode,
  type ActivityExposure,
  type ExposureEvidence,
  type ScreeningInput,
} from '../../engine/index.ts';
import { monthsBefore, addDays } from '../../engine/dates.ts';
import type { ExclusionVersion } from '../../engine/faith/exclusion-types.ts';
import { BRI_VERSIONS } from '../../engine/faith/christian-bri.ts';
import { USCCB_VERSIONS } from '../../engine/faith/catholic-usccb.ts';
import { LDS_VERSIONS } from '../../engine/faith/lds-mormon.ts';
import { industryDoubt, involvementOfClass } from '../../engine/industry-codes.ts';
import { versionInForce } from '../../engine/methodology-versions.ts';
import { SHARIAH_VERSIONS } from '../../engine/shariah/index-of-versions.ts';
import { baseInput } from './fixtures.ts';

const DATE = '2025-06-30';
const WINDOW_START = monthsBefore(DATE, 24);

/** Codes of every kind: clean classes, classes with doubts, primary businesses, codes outside the table, none. */
const SIC_CODES = [
  '3560',
  '3674',
  '5812',
  '5810',
  '5411',
  '5331',
  '3812',
  '3721',
  '2015',
  '2011',
  '2086',
  '2834',
  '7011',
  '6022',
  '7990',
  '6770',
  '9995',
  null,
];
const SCREENED_ACTIVITIES: readonly ActivityCode[] = [
  'alcohol',
  'pork',
  'tobacco',
  'coffee',
  'tea',
  'weapons',
  'gambling',
  'non_halal_meat',
  'contraceptives',
];
const EVIDENCE: readonly ExposureEvidence[] = ['reported', 'filing_concept', 'filing_dimension', 'curated', 'retired_concept'];

/** Ages in days on the screening date: fresh, at the window's edge, just beyond it, years old. */
const ageDays = fc.constantFrom(0, 30, 400, 729, 731, 800, 2000, 4000);

const arbRow = fc.record({
  activity: fc.constantFrom(...SCREENED_ACTIVITIES),
  share: fc.constantFrom(0, 0.001, 0.01, 0.04),
  age: ageDays,
  evidence: fc.constantFrom(...EVIDENCE),
});

const arbInput = fc
  .record({
    sic: fc.constantFrom(...SIC_CODES),
    rows: fc.uniqueArray(arbRow, { selector: (r) => r.activity, maxLength: 3 }),
    reviewAge: fc.option(ageDays, { nil: null, freq: 3 }),
    accounted: fc.option(fc.record({ share: fc.constantFrom(0.9, 0.97, 0.99, 1), age: ageDays }), { nil: null, freq: 3 }),
    spotAge: fc.constantFrom(0, 5, 10, 11, 40, 200),
  })
  .map((r) => {
    const base = baseInput();
    const exposures: ActivityExposure[] = r.rows.map((row) => ({
      activity: row.activity,
      revenueShare: row.share,
      asOf: addDays(DATE, -row.age),
      sourceRef: `prop:${row.evidence}`,
      evidence: row.evidence,
    }));
    const input: ScreeningInput = {
      ...base,
      screeningDate: DATE,
      listing: { ...base.listing, sic: r.sic },
      exposures,
      activitiesReviewedOn: r.reviewAge === null ? null : addDays(DATE, -r.reviewAge),
      revenueAccounted:
        r.accounted === null ? null : { share: r.accounted.share, asOf: addDays(DATE, -r.accounted.age), sourceRef: 'prop:accounted' },
      marketCap: { ...base.marketCap, spotPriceDate: addDays(DATE, -r.spotAge) },
    };
    return input;
  });

const fresh = (asOf: string | null | undefined): boolean => asOf !== null && asOf !== undefined && asOf >= WINDOW_START && asOf <= DATE;

/** The activities a framework screens for a company of the class `sic` (a producers-only rule skips other classes). */
function screenedBy(id: string, sic: string | null): readonly ActivityCode[] {
  if (id.startsWith('shariah_')) return versionInForce(SHARIAH_VERSIONS[id as keyof typeof SHARIAH_VERSIONS], DATE)!.prohibited;
  const versions: Record<string, readonly ExclusionVersion[]> = {
    christian_bri: BRI_VERSIONS,
    catholic_usccb: USCCB_VERSIONS,
    lds_mormon: LDS_VERSIONS,
  };
  const involvement = involvementOfClass(sic);
  return versionInForce(versions[id]!, DATE)!
    .rules.filter((r) => !(r.threshold >= 0.5 && r.direct === undefined))
    .filter((r) => !r.onlyDirect || involvement === null || (r.direct ?? []).includes(involvement))
    .map((r) => r.activity);
}

/** Fresh evidence that covers the company beyond its industry code (what settles a class's doubt). */
function freshCoverage(input: ScreeningInput): boolean {
  const vendor = input.exposures.some((e) => (e.evidence ?? 'reported') === 'reported' && fresh(e.asOf));
  const accounted = input.revenueAccounted !== null && input.revenueAccounted !== undefined && input.revenueAccounted.share >= 0.99;
  return vendor || fresh(input.activitiesReviewedOn) || (accounted && fresh(input.revenueAccounted!.asOf));
}

/** The table-driven frameworks: the halakhic screen reasons on control, the consensus on the others. */
const FRAMEWORKS = FRAMEWORK_IDS.filter((id) => id !== 'jewish_halakhic' && id !== 'service_consensus');

describe('no compliant verdict on thin evidence', () => {
  it('when a framework is compliant, then every activity it screens that the industry code leaves in doubt is settled by fresh evidence', () => {
    fc.assert(
      fc.property(arbInput, (input) => {
        const result = screenCompany(input);
        const doubted = industryDoubt(input.listing.sic)?.activities ?? [];
        const violations: string[] = [];
        for (const id of FRAMEWORKS) {
          if (result.frameworks[id as keyof typeof result.frameworks]!.status !== 'compliant') continue;
          const unsettled = doubted.filter(
            (a) => screenedBy(id, input.listing.sic).includes(a) && !input.exposures.some((e) => e.activity === a && fresh(e.asOf)),
          );
          if (unsettled.length > 0 && !freshCoverage(input)) violations.push(`${id} compliant with [${unsettled.join(', ')}] in doubt`);
        }
        expect(violations).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });

  it('when a framework is compliant, then no activity it screens rests on a row outside its freshness window', () => {
    fc.assert(
      fc.property(arbInput, (input) => {
        const result = screenCompany(input);
        const violations: string[] = [];
        for (const id of FRAMEWORKS) {
          if (result.frameworks[id as keyof typeof result.frameworks]!.status !== 'compliant') continue;
          const screened = screenedBy(id, input.listing.sic);
          for (const e of input.exposures)
            if (screened.includes(e.activity) && !fresh(e.asOf)) violations.push(`${id}: ${e.activity} dated ${e.asOf}`);
          // Something fresh, or a class of the reviewed table, covers the company.
          if (!freshCoverage(input) && industryDoubt(input.listing.sic) === null)
            violations.push(`${id}: nothing fresh covers the company`);
        }
        expect(violations).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });

  it('when the spot price is more than 10 days old, then no framework that divides by the spot market value is compliant', () => {
    fc.assert(
      fc.property(arbInput, (input) => {
        fc.pre(input.marketCap.spotPriceDate! < addDays(DATE, -10));
        expect(screenCompany(input).frameworks.shariah_aaoifi!.status).not.toBe('compliant');
      }),
      { numRuns: 500 },
    );
  });
});
