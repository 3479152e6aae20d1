import { display, readingOf } from './figures.ts';
import type { MethodRef, MissingFigure, ScoreInsufficient, ScoreOk, Threshold } from './types.ts';

/** The reported figures a Benford test reads, and the filings they came from. */
export interface BenfordSample {
  values: readonly number[];
  filings: ReadonlyArray<{ period_end: string; source_ref: string; filed_on: string }>;
}

export interface BenfordDigit {
  digit: number;
  count: number;
  /** Share of the figures with this first digit, 0..1. */
  observed: number;
  /** Benford's expected share, log10(1 + 1/d). */
  expected: number;
  abs_deviation: number;
}

export interface BenfordComponents {
  figures: number;
  digits: BenfordDigit[];
  mad: number;
  /** Pearson chi-square against Benford (8 degrees of freedom; 15.507 is the 5% critical value), shown for reference. */
  chi_square: number;
  filings: BenfordSample['filings'];
}

export type BenfordResult = ScoreOk<BenfordComponents> | ScoreInsufficient<BenfordComponents>;

/** Fewer figures than this and the first-digit distribution says little. */
export const BENFORD_MIN_FIGURES = 100;

/** Nigrini (2012) first-digit MAD bands; his ranges share end points, which we give to the better band. */
const THRESHOLDS: Threshold[] = [
  { operator: '<=', value: 0.006, reading: 'close conformity' },
  { operator: '<=', value: 0.012, reading: 'acceptable conformity' },
  { operator: '<=', value: 0.015, reading: 'marginally acceptable conformity' },
  { operator: '>', value: 0.015, reading: 'nonconformity' },
];

const METHOD: MethodRef = {
  name: "Benford's law first-digit test (mean absolute deviation)",
  formula: 'expected share of first digit d = log10(1 + 1/d); MAD = Σ|observed_d − expected_d| / 9 over d = 1..9',
  source:
    "Benford, F. (1938), Proceedings of the American Philosophical Society 78(4); Nigrini, M. J. (2012), Benford's Law: Applications " +
    'for Forensic Accounting, Auditing, and Fraud Detection, Wiley (MAD conformity ranges)',
};

/** First significant digit of |value| (1..9), or null for figures below 10 (too few digits to test). */
export function firstDigit(value: number): number | null {
  const abs = Math.abs(value);
  if (!Number.isFinite(abs) || abs < 10) return null;
  return Number(abs.toExponential()[0]);
}

/** Benford first-digit conformity of the sample's figures (|value| ≥ 10). */
export function benfordTest(sample: BenfordSample): BenfordResult {
  const counts = new Array<number>(10).fill(0);
  let n = 0;
  for (const value of sample.values) {
    const d = firstDigit(value);
    if (d === null) continue;
    counts[d]! += 1;
    n += 1;
  }
  const digits: BenfordDigit[] = [];
  let chi = 0;
  for (let d = 1; d <= 9; d += 1) {
    const expected = Math.log10(1 + 1 / d);
    const observed = n === 0 ? 0 : counts[d]! / n;
    digits.push({ digit: d, count: counts[d]!, observed, expected, abs_deviation: Math.abs(observed - expected) });
    chi += n === 0 ? 0 : (counts[d]! - n * expected) ** 2 / (n * expected);
  }
  const mad = digits.reduce((s, x) => s + x.abs_deviation, 0) / 9;
  const components: BenfordComponents = { figures: n, digits, mad, chi_square: chi, filings: sample.filings };
  const base = {
    method: METHOD,
    periods: [...new Set(sample.filings.map((f) => f.period_end))].sort().reverse(),
    inputs: [],
    thresholds: THRESHOLDS,
    notes: [
      'figures: every amount of ten or more reported in the filings used (one value per figure and period end)',
      ...(n > 0 && n < 300 ? [`only ${n} figures: Nigrini's ranges were set on larger data sets, read the result with care`] : []),
    ],
  };
  if (n < BENFORD_MIN_FIGURES) {
    const missing: MissingFigure[] = [
      {
        field: 'period',
        period: 'current',
        period_end: null,
        reason: `${n} figures of ten or more reported; the test needs at least ${BENFORD_MIN_FIGURES}`,
      },
    ];
    return { status: 'insufficient_data', value: null, reading: null, ...base, missing, components };
  }
  return { status: 'ok', value: display(mad * 1e2) / 1e2, reading: readingOf(mad, THRESHOLDS), ...base, components };
}
