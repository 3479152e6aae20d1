/**
 * Exact comparison with published limits (docs/frameworks/README.md, "Exact comparison").
 * Property tests over values straddling every limit of every methodology: a ratio beyond its
 * limit, computed from the figure the methodology names, is never anything but non_compliant,
 * and a value exactly at the limit follows the stated operator. Inputs are decimals with at most
 * 15 significant digits, so each is exactly the decimal it was built as; the expected outcome is
 * computed here from those decimals as scaled integers, apart from the engine's code.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { screenCompany, type FrameworkId, type ScreeningInput } from '../../engine/index.ts';
import { compareExact, compareToLimit, decimalOf } from '../../engine/exact.ts';
import { SHARIAH_VERSIONS } from '../../engine/shariah/index-of-versions.ts';
import type { ShariahVersion } from '../../engine/shariah/rule-types.ts';
import { BRI_VERSIONS } from '../../engine/faith/christian-bri.ts';
import { USCCB_VERSIONS } from '../../engine/faith/catholic-usccb.ts';
import { LDS_VERSIONS } from '../../engine/faith/lds-mormon.ts';
import type { ExclusionVersion } from '../../engine/faith/exclusion-types.ts';
import type { RatioKey } from '../../engine/result-types.ts';
import type { ThresholdRule } from '../../engine/threshold-check.ts';
import { baseInput } from './fixtures.ts';

/** A decimal as an integer count of 10^-SCALE units (all test values have at most 15 decimals). */
const SCALE = 15;
const UNIT = 10n ** BigInt(SCALE);

function units(x: string): bigint {
  const [int, frac = ''] = x.split('.');
  return BigInt(int! + frac.padEnd(SCALE, '0'));
}

function decimalText(u: bigint): string {
  const negative = u < 0n;
  const abs = negative ? -u : u;
  const int = abs / UNIT;
  const frac = (abs % UNIT).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** The limit as the published decimal, in units. */
function limitUnits(limit: number): bigint {
  return units(String(limit));
}

/** Offsets from the limit, in units: at it, and 1e-4 (a basis point), 1e-6, 1e-9 and 1e-12 either side. */
const OFFSETS: readonly bigint[] = [0n, ...[11n, 9n, 6n, 3n].flatMap((e) => [10n ** e, -(10n ** e)])];

const within = (value: bigint, limit: bigint, operator: '<' | '<='): boolean => (operator === '<' ? value < limit : value <= limit);

/** A screening date on which `versions[i]` is in force. */
function dateFor(versions: readonly { effectiveFrom: string }[], i: number): string {
  const next = versions[i + 1];
  if (next === undefined) return '2025-06-30';
  // The day before the next version: ISO dates minus one day, done on a Date in UTC.
  const d = new Date(`${next.effectiveFrom}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** A clean company on `date` with every amount zero: only the figures a case sets move a ratio. */
function zeroCompany(date: string): ScreeningInput {
  const base = baseInput();
  const year = date.slice(0, 4);
  return {
    ...base,
    screeningDate: date,
    fundamentals: {
      ...base.fundamentals!,
      periodEnd: `${year}-01-31`,
      filedOn: `${year}-03-01`,
      totalAssets: 1e6,
      totalDebt: 0,
      cashAndEquivalents: 0,
      interestBearingInvestments: 0,
      accountsReceivable: 0,
      totalRevenue: 1000,
      interestIncome: 0,
    },
    marketCap: { spot: 1e6, spotPriceDate: date, avg24m: 1e6, avg36m: 1e6, months24: 24, months36: 36 },
    exposures: [],
  };
}

/** Put numerator parts and the denominator of `ratio` into the company. */
function withRatio(input: ScreeningInput, ratio: RatioKey, parts: readonly number[], denominator: number): ScreeningInput {
  const f = { ...input.fundamentals! };
  const mc = { ...input.marketCap };
  const [a, b = 0] = parts;
  const marketCapRatio = ratio.includes('market_cap');
  if (marketCapRatio) {
    mc.spot = denominator;
    mc.avg24m = denominator;
    mc.avg36m = denominator;
  } else f.totalAssets = denominator;
  if (ratio.startsWith('debt_')) f.totalDebt = a!;
  else if (ratio.startsWith('cash_and_securities')) {
    f.cashAndEquivalents = a!;
    f.interestBearingInvestments = b;
  } else if (ratio === 'receivables_and_cash_to_assets') {
    f.accountsReceivable = a!;
    f.cashAndEquivalents = b;
  } else if (ratio.startsWith('receivables_')) f.accountsReceivable = a!;
  else throw new Error(`no setter for ${ratio}`);
  return { ...input, fundamentals: f, marketCap: mc };
}

const shariahRules: { id: FrameworkId; version: ShariahVersion; date: string; ratio: RatioKey; rule: ThresholdRule }[] = [];
for (const [id, versions] of Object.entries(SHARIAH_VERSIONS)) {
  versions.forEach((version, i) => {
    for (const rr of version.ratioRules)
      shariahRules.push({ id: id as FrameworkId, version, date: dateFor(versions, i), ratio: rr.ratio, rule: rr.rule });
  });
}

describe('exact decimals', () => {
  it('when a double is read, then it stands for its shortest decimal', () => {
    expect(decimalOf(0.1)).toEqual({ num: 1n, den: 10n });
    expect(decimalOf(0.0475)).toEqual({ num: 475n, den: 10000n });
    expect(decimalOf(1e-7)).toEqual({ num: 1n, den: 10000000n });
    expect(decimalOf(1.5e21)).toEqual({ num: 1500000000000000000000n, den: 1n });
    expect(decimalOf(-2.5)).toEqual({ num: -25n, den: 10n });
    expect(() => decimalOf(Number.NaN)).toThrow(RangeError);
  });

  it('when 0.1 + 0.2 is compared with 0.3, then it is equal (doubles say greater)', () => {
    expect(0.1 + 0.2 > 0.3).toBe(true);
    expect(compareExact([{ numerator: [0.1, 0.2], denominator: 1 }], 0.3)).toBe(0);
    expect(compareToLimit(0.1 + 0.2, 0.3, () => [{ numerator: [0.1, 0.2], denominator: 1 }])).toBe(0);
  });

  it('when a quotient is compared, then numerator and denominator are cross-multiplied exactly', () => {
    // 999990 / 3000000 = 0.33333 exactly; 999989.99 / 3000000 is below.
    expect(compareExact([{ numerator: [999990], denominator: 3000000 }], 0.33333)).toBe(0);
    expect(compareExact([{ numerator: [999989.99], denominator: 3000000 }], 0.33333)).toBe(-1);
    expect(compareExact([{ numerator: [1], denominator: 3 }], 0.33333)).toBe(1);
  });

  it('when the value is far from the limit, then the exact form is never built', () => {
    expect(
      compareToLimit(0.2, 0.3, () => {
        throw new Error('built');
      }),
    ).toBe(-1);
    expect(
      compareToLimit(0.4, 0.3, () => {
        throw new Error('built');
      }),
    ).toBe(1);
  });
});

describe('every ratio limit of every Shariah methodology', () => {
  for (const { id, version, date, ratio, rule } of shariahRules) {
    it(`when ${rule.code} (${version.version}) straddles ${rule.operator} ${rule.threshold}, then a breach is non_compliant and the limit follows the operator`, () => {
      const limit = limitUnits(rule.threshold);
      fc.assert(
        fc.property(
          fc.constantFrom(...OFFSETS),
          fc.integer({ min: 1, max: 6 }),
          fc.double({ min: 0, max: 1, noNaN: true }),
          (offset, digits, split) => {
            // value = limit + offset (at most 12 decimals); numerator = value × denominator, kept within 15 significant digits.
            const value = limit + offset;
            const denominatorDigits = offset === 10n ** 3n || offset === -(10n ** 3n) ? Math.min(digits, 3) : digits;
            const denominatorUnits = units(String(10 ** (denominatorDigits - 1) + Math.floor(split * 9 * 10 ** (denominatorDigits - 1))));
            const numeratorUnits = (value * denominatorUnits) / UNIT;
            // Sums split in two; the first part with two decimals so both parts stay exact doubles. Where cash
            // only stands in for interest-bearing deposits, all of it goes to the securities: the named figure.
            const cent = UNIT / 100n;
            const firstUnits =
              rule.proxy === 'cash_for_interest_bearing_deposits'
                ? 0n
                : ((numeratorUnits * BigInt(Math.floor(split * 1000))) / 1000n / cent) * cent;
            const singleFigure = ratio.startsWith('debt_') || ratio.startsWith('receivables_to_');
            const parts = singleFigure ? [numeratorUnits] : [firstUnits, numeratorUnits - firstUnits];
            const input = withRatio(
              zeroCompany(date),
              ratio,
              parts.map((u) => Number(decimalText(u))),
              Number(decimalText(denominatorUnits)),
            );
            const framework = screenCompany(input).frameworks[id]!;
            expect(framework.methodology_version).toBe(version.version);
            const reason = framework.reasons.find((r) => r.code === rule.code)!;
            const expected = within(value, limit, rule.operator);
            expect(reason.within_limit, `${decimalText(value)} ${rule.operator} ${rule.threshold}`).toBe(expected);
            expect(reason.result).toBe(expected ? 'pass' : 'fail');
            // A breach is decisive: the framework is non_compliant whatever its other checks say.
            expect(expected || framework.status === 'non_compliant').toBe(true);
          },
        ),
        { seed: 15, numRuns: 120 },
      );
    });
  }
});

describe('every income limit of every Shariah methodology', () => {
  let naiveWrong = 0;
  let cases = 0;
  for (const [id, versions] of Object.entries(SHARIAH_VERSIONS)) {
    versions.forEach((version, i) => {
      const rule = version.income.rule;
      const date = dateFor(versions, i);
      it(`when ${rule.code} (${version.version}) sums many shares to ${rule.operator} ${rule.threshold} ± offsets, then it lands on the right side`, () => {
        const limit = limitUnits(rule.threshold);
        // 4.75%, 5.00% and 5.25% of revenue, and offsets around the limit itself.
        const targets = [units('0.0475'), units('0.0525'), ...OFFSETS.map((o) => limit + o)];
        fc.assert(
          fc.property(
            fc.constantFrom(...targets),
            fc.shuffledSubarray([...version.prohibited], { minLength: 1 }),
            fc.array(fc.integer({ min: 1, max: 999_999 }), { minLength: 12, maxLength: 12 }),
            fc.integer({ min: 1, max: 99_999 }),
            (target, activities, weights, revenue) => {
              // Shares are multiples of 1e-12, each a slice of what the target leaves after interest.
              // Interest share a multiple of 1e-9, so interest income = share × revenue stays an exact double.
              const nano = UNIT / 1_000_000_000n;
              const interestShare = version.income.includeInterest ? ((target * BigInt(weights[0]!)) / 3_000_000n / nano) * nano : 0n;
              let rest = target - interestShare;
              const shares: bigint[] = [];
              activities.forEach((_, k) => {
                const last = k === activities.length - 1;
                const s = last ? rest : ((rest * BigInt(weights[k + 1] ?? 1)) / 2_000_000n / 1000n) * 1000n;
                shares.push(s);
                rest -= s;
              });
              const revenueUnits = BigInt(revenue) * UNIT;
              const interestIncome = Number(decimalText((interestShare * revenueUnits) / UNIT));
              const base = zeroCompany(date);
              const input: ScreeningInput = {
                ...base,
                fundamentals: { ...base.fundamentals!, totalRevenue: revenue, interestIncome },
                // Retailers: the revenue-share limits decide (a producer is excluded at any share where the methodology says so).
                exposures: activities.map((activity, k) => ({
                  activity,
                  revenueShare: Number(decimalText(shares[k]!)),
                  asOf: date,
                  sourceRef: 'prop',
                  involvement: 'retailer' as const,
                })),
              };
              const framework = screenCompany(input).frameworks[id as FrameworkId]!;
              const reason = framework.reasons.find((r) => r.code === rule.code)!;
              const expected = within(target, limit, rule.operator);
              expect(reason.within_limit, `${decimalText(target)} ${rule.operator} ${rule.threshold}`).toBe(expected);
              expect(reason.result).toBe(expected ? 'pass' : 'fail');
              expect(expected || framework.status === 'non_compliant').toBe(true);
              // The same sum in doubles, as the engine once compared it.
              let naive = version.income.includeInterest ? interestIncome / revenue : 0;
              for (const e of input.exposures) naive += e.revenueShare;
              if ((rule.operator === '<' ? naive < rule.threshold : naive <= rule.threshold) !== expected) naiveWrong += 1;
              cases += 1;
            },
          ),
          { seed: 2133, numRuns: 300 },
        );
      });
    });
  }

  it('when the sums are added in doubles instead, then some land on the wrong side (the test can tell)', () => {
    expect(cases).toBeGreaterThan(0);
    expect(naiveWrong).toBeGreaterThan(0);
  });
});

describe('every revenue limit of every exclusion table', () => {
  const tables: [FrameworkId, readonly ExclusionVersion[]][] = [
    ['christian_bri', BRI_VERSIONS],
    ['catholic_usccb', USCCB_VERSIONS],
    ['lds_mormon', LDS_VERSIONS],
  ];
  for (const [id, versions] of tables) {
    versions.forEach((version, i) => {
      const date = dateFor(versions, i);
      // A rule that excludes only producers has no revenue limit to straddle (tested in the golden tables).
      for (const rule of version.rules.filter((r) => !r.onlyDirect)) {
        it(`when ${rule.code} (${version.version}) straddles ${rule.operator} ${rule.threshold}, then the stated operator decides`, () => {
          const limit = limitUnits(rule.threshold);
          for (const offset of OFFSETS) {
            const share = limit + offset;
            if (share < 0n) continue;
            const input = {
              ...zeroCompany(date),
              exposures: [
                {
                  activity: rule.activity,
                  revenueShare: Number(decimalText(share)),
                  asOf: date,
                  sourceRef: 'prop',
                  involvement: 'retailer' as const,
                },
              ],
            };
            const framework = screenCompany(input).frameworks[id]!;
            const reason = framework.reasons.find((r) => r.code === rule.code)!;
            const expected = within(share, limit, rule.operator);
            expect(reason.within_limit, `${decimalText(share)} ${rule.operator} ${rule.threshold}`).toBe(expected);
            // A breach takes the rule's stated outcome: fail (framework non_compliant), or questionable with the rule's doubt.
            const breach = expected ? null : { result: reason.result, doubt: reason.doubt, status: framework.status };
            const stated =
              rule.onBreach === 'fail'
                ? { result: 'fail', doubt: undefined, status: 'non_compliant' }
                : { result: 'questionable', doubt: rule.doubt, status: framework.status };
            expect(breach).toEqual(expected ? null : stated);
          }
        });
      }
    });
  }
});
