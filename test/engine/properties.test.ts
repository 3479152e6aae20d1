/**
 * Property tests (fast-check): monotonicity (more debt, or more revenue from an excluded
 * activity, never improves any verdict), the framework filter never changes a verdict,
 * determinism and JSON round-tripping, and every questionable check naming its doubt.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_CODES,
  DOUBTS,
  FRAMEWORK_IDS,
  isImprovement,
  filterFrameworks,
  screenCompany,
  type ActivityCode,
  type ScreeningInput,
  type VerdictStatus,
} from '../../engine/index.ts';
import { baseInput } from './fixtures.ts';

const amount = (max: number) => fc.option(fc.double({ min: 0, max, noNaN: true }), { nil: null, freq: 10 });
const share = fc.double({ min: 0, max: 1, noNaN: true });
const dates = fc.constantFrom('2010-06-30', '2019-08-15', '2021-11-17', '2023-06-30', '2025-06-30');

const arbInput: fc.Arbitrary<ScreeningInput> = fc
  .record({
    date: dates,
    assets: fc.double({ min: 1, max: 1e6, noNaN: true }),
    debt: amount(1e6),
    cash: amount(1e6),
    ibi: amount(1e5),
    ar: amount(1e6),
    revenue: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: null, freq: 10 }),
    interest: amount(1e4),
    spot: fc.double({ min: 1, max: 1e7, noNaN: true }),
    months24: fc.integer({ min: 0, max: 24 }),
    heterIska: fc.constantFrom(true, false, null),
    shabbat: fc.constantFrom(true, false, null),
    exposures: fc.uniqueArray(fc.record({ activity: fc.constantFrom(...ACTIVITY_CODES), share }), {
      selector: (e) => e.activity,
      maxLength: 4,
    }),
  })
  .map((r) => {
    const base = baseInput();
    return {
      ...base,
      screeningDate: r.date,
      listing: { ...base.listing, heterIska: r.heterIska, operatesOnShabbat: r.shabbat },
      fundamentals: {
        ...base.fundamentals!,
        periodEnd: `${r.date.slice(0, 4)}-01-31`,
        filedOn: `${r.date.slice(0, 4)}-03-01`,
        totalAssets: r.assets,
        totalDebt: r.debt,
        cashAndEquivalents: r.cash,
        interestBearingInvestments: r.ibi,
        accountsReceivable: r.ar,
        totalRevenue: r.revenue,
        interestIncome: r.interest,
      },
      marketCap: { spot: r.spot, spotPriceDate: r.date, avg24m: r.spot, avg36m: r.spot, months24: r.months24, months36: 36 },
      exposures: r.exposures.map((e) => ({ activity: e.activity, revenueShare: e.share, asOf: r.date, sourceRef: 'prop' })),
    };
  });

function statuses(input: ScreeningInput): VerdictStatus[] {
  const result = screenCompany(input);
  return FRAMEWORK_IDS.map((id) => result.frameworks[id]!.status);
}

/** The frameworks whose verdict improved, as `id: before -> after` (expected to be empty). */
function improvements(before: VerdictStatus[], after: VerdictStatus[]): string[] {
  return FRAMEWORK_IDS.filter((_, i) => isImprovement(before[i]!, after[i]!)).map(
    (id) => `${id}: ${before[FRAMEWORK_IDS.indexOf(id)]} -> ${after[FRAMEWORK_IDS.indexOf(id)]}`,
  );
}

describe('monotonicity', () => {
  it('when debt rises, then no framework verdict improves', () => {
    fc.assert(
      fc.property(arbInput, fc.double({ min: 0, max: 1e6, noNaN: true }), (input, extra) => {
        // A missing debt figure becoming known may move insufficient_data either way: only known debt rises.
        fc.pre(input.fundamentals!.totalDebt !== null);
        const debt = input.fundamentals!.totalDebt!;
        const before = statuses(input);
        const after = statuses({ ...input, fundamentals: { ...input.fundamentals!, totalDebt: debt + extra } });
        expect(improvements(before, after)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('when an activity share rises, then no framework verdict improves', () => {
    fc.assert(
      fc.property(arbInput, fc.constantFrom<ActivityCode>(...ACTIVITY_CODES), share, share, (input, activity, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const withShare = (s: number): ScreeningInput => ({
          ...input,
          exposures: [
            ...input.exposures.filter((e) => e.activity !== activity),
            { activity, revenueShare: s, asOf: input.screeningDate, sourceRef: 'prop' },
          ],
        });
        expect(improvements(statuses(withShare(low)), statuses(withShare(high)))).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

describe('the framework filter', () => {
  it('when any subset of frameworks is requested, then each returned verdict equals the full computation', () => {
    fc.assert(
      fc.property(arbInput, fc.subarray([...FRAMEWORK_IDS], { minLength: 1 }), (input, ids) => {
        const full = screenCompany(input);
        const filtered = filterFrameworks(full, ids);
        expect(filtered.frameworks_returned).toEqual(FRAMEWORK_IDS.filter((id) => ids.includes(id)));
        for (const id of ids) expect(filtered.frameworks[id]).toEqual(full.frameworks[id]);
        expect(Object.keys(filtered.frameworks).length).toBe(ids.length);
        const anyShariah = ids.some((id) => id.startsWith('shariah_'));
        expect(filtered.madhhab_views).toEqual(anyShariah ? full.madhhab_views : undefined);
      }),
      { numRuns: 200 },
    );
  });
});

describe('purity', () => {
  it('when the same input is screened twice, then the results are identical and survive JSON', () => {
    fc.assert(
      fc.property(arbInput, (input) => {
        const a = screenCompany(input);
        expect(screenCompany(input)).toEqual(a);
        expect(JSON.parse(JSON.stringify(a))).toEqual(a);
        for (const id of FRAMEWORK_IDS) expect(a.frameworks[id]!.reasons.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe('questionable means doubt', () => {
  // service_consensus's questionable is its 50–80 score band, a business finding or undecided methodologies, not a check.
  const checked = FRAMEWORK_IDS.filter((id) => id !== 'service_consensus');
  it('when any company is screened, then every questionable check names its kind of doubt and every numeric check its margin', () => {
    fc.assert(
      fc.property(arbInput, fc.constantFrom('3560', '5812', '2080', null), (input, sic) => {
        const result = screenCompany({ ...input, listing: { ...input.listing, sic } });
        for (const id of checked) {
          for (const r of result.frameworks[id]!.reasons) {
            expect(r.result !== 'questionable' || DOUBTS.includes(r.doubt!), `${r.code}: ${r.message}`).toBe(true);
            const numeric = r.value !== undefined && r.within_limit !== undefined && !r.filing_ref?.startsWith('sic:');
            expect(!numeric || (typeof r.margin === 'number' && typeof r.near_limit === 'boolean'), r.code).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
