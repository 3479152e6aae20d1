/**
 * The financial ratios every methodology draws from, computed once per screen. A ratio is
 * null when any input it needs is missing, negative, stale or (for a denominator) not
 * positive; `causes` then says why, in a code that `describeCause` turns into prose.
 */
import type { Fraction } from './exact.ts';
import type { Fundamentals, ScreeningInput } from './inputs.ts';
import { STALENESS_LIMITS, type AverageState, type InputQuality } from './input-quality.ts';
import type { RatioKey, Ratios, ReasonInput } from './result-types.ts';
import { formatMonthRuns } from './format.ts';

export interface RatioSet {
  values: Ratios;
  /** Why a ratio is null (only for null ratios). */
  causes: Partial<Record<RatioKey, string>>;
  /** The figures behind each ratio with their sources; null when the filing records no sources. */
  inputs: Partial<Record<RatioKey, readonly ReasonInput[]>> | null;
  /** A proven lower bound of a null ratio, from a lower bound of its numerator (interest income). */
  atLeast: Partial<Record<RatioKey, number>>;
}

type AmountField =
  | 'totalAssets'
  | 'totalDebt'
  | 'cashAndEquivalents'
  | 'interestBearingInvestments'
  | 'accountsReceivable'
  | 'totalRevenue'
  | 'interestIncome';

const FIELD_LABEL: Record<string, string> = {
  totalAssets: 'total assets',
  totalDebt: 'total debt',
  cashAndEquivalents: 'cash and equivalents',
  interestBearingInvestments: 'interest-bearing investments',
  accountsReceivable: 'accounts receivable',
  totalRevenue: 'total revenue',
  interestIncome: 'interest income',
  spot: 'spot market cap',
  avg24m: '24-month average market cap',
  avg36m: '36-month average market cap',
};

const CAUSE_TEXT: Record<string, string> = {
  fundamentals_missing: 'no filing on or before the screening date',
  fundamentals_stale: 'the latest filing is older than the staleness limit',
  fundamentals_after_screening_date: 'the filing is dated after the screening date',
  fundamentals_bad_date: 'the filing dates are malformed',
  price_missing: 'no spot price',
  price_stale: 'the spot price is older than the staleness limit',
  price_after_screening_date: 'the spot price is dated after the screening date',
  price_bad_date: 'the spot price date is malformed',
  history_too_short: 'too few month-end prices behind the average',
  // `months_missing:<months>` is described by `monthsMissingText`.
  currency_mismatch: 'the filing currency differs from the listing currency',
  ratio_overflow: 'the ratio overflows (denominator too small)',
};

type FigureField = AmountField | 'sharesOutstanding';

/** Lake column of each figure: the key of `Fundamentals.figureSources`. */
const FIGURE_COLUMN: Record<FigureField, string> = {
  totalAssets: 'total_assets',
  totalDebt: 'total_debt',
  cashAndEquivalents: 'cash_and_equivalents',
  interestBearingInvestments: 'interest_bearing_investments',
  accountsReceivable: 'accounts_receivable',
  totalRevenue: 'total_revenue',
  interestIncome: 'interest_income',
  sharesOutstanding: 'shares_outstanding',
};

const CASH_AND_SECURITIES: readonly FigureField[] = ['cashAndEquivalents', 'interestBearingInvestments'];

/** The filing figures each ratio uses (market caps are close × shares outstanding). */
const RATIO_FIGURES: Record<RatioKey, readonly FigureField[]> = {
  debt_to_market_cap_spot: ['totalDebt', 'sharesOutstanding'],
  debt_to_market_cap_24m: ['totalDebt', 'sharesOutstanding'],
  debt_to_market_cap_36m: ['totalDebt', 'sharesOutstanding'],
  cash_and_securities_to_market_cap_spot: [...CASH_AND_SECURITIES, 'sharesOutstanding'],
  cash_and_securities_to_market_cap_24m: [...CASH_AND_SECURITIES, 'sharesOutstanding'],
  cash_and_securities_to_market_cap_36m: [...CASH_AND_SECURITIES, 'sharesOutstanding'],
  receivables_to_market_cap_24m: ['accountsReceivable', 'sharesOutstanding'],
  receivables_to_market_cap_36m: ['accountsReceivable', 'sharesOutstanding'],
  debt_to_assets: ['totalDebt', 'totalAssets'],
  cash_and_securities_to_assets: [...CASH_AND_SECURITIES, 'totalAssets'],
  receivables_to_assets: ['accountsReceivable', 'totalAssets'],
  receivables_and_cash_to_assets: ['accountsReceivable', 'cashAndEquivalents', 'totalAssets'],
  interest_income_to_revenue: ['interestIncome', 'totalRevenue'],
};

const RATIO_COLUMNS = Object.fromEntries(
  Object.entries(RATIO_FIGURES).map(([key, fields]) => [key, Object.freeze(fields.map((field) => FIGURE_COLUMN[field]))]),
) as Record<RatioKey, readonly string[]>;

/** The lake columns of the filing figures a ratio uses (`total_debt`, `shares_outstanding`, …). */
export function ratioFigureColumns(key: RatioKey): readonly string[] {
  return RATIO_COLUMNS[key];
}

/** Each ratio's figures with their sources; one frozen object per figure, shared by the ratios. */
function ratioInputs(f: Fundamentals, sources: Record<string, string>): Partial<Record<RatioKey, readonly ReasonInput[]>> {
  const byField = new Map<FigureField, ReasonInput>();
  const inputOf = (field: FigureField): ReasonInput => {
    let input = byField.get(field);
    if (input === undefined) {
      const name = FIGURE_COLUMN[field];
      const source = sources[name];
      input = Object.freeze(source === undefined ? { name, value: f[field] } : { name, value: f[field], source });
      byField.set(field, input);
    }
    return input;
  };
  const out: Partial<Record<RatioKey, readonly ReasonInput[]>> = {};
  for (const key of Object.keys(RATIO_FIGURES) as RatioKey[]) out[key] = Object.freeze(RATIO_FIGURES[key].map(inputOf));
  return out;
}

/** Shared by every screen without a lower bound (almost all), so none allocates one. */
const NO_BOUNDS: Partial<Record<RatioKey, number>> = Object.freeze({});
/** Numerator figures and denominator of each ratio, for its exact form. */
const RATIO_PARTS: Record<
  RatioKey,
  { numerator: readonly AmountField[]; denominator: 'spot' | 'avg24m' | 'avg36m' | 'totalAssets' | 'totalRevenue' }
> = {
  debt_to_market_cap_spot: { numerator: ['totalDebt'], denominator: 'spot' },
  debt_to_market_cap_24m: { numerator: ['totalDebt'], denominator: 'avg24m' },
  debt_to_market_cap_36m: { numerator: ['totalDebt'], denominator: 'avg36m' },
  cash_and_securities_to_market_cap_spot: { numerator: ['cashAndEquivalents', 'interestBearingInvestments'], denominator: 'spot' },
  cash_and_securities_to_market_cap_24m: { numerator: ['cashAndEquivalents', 'interestBearingInvestments'], denominator: 'avg24m' },
  cash_and_securities_to_market_cap_36m: { numerator: ['cashAndEquivalents', 'interestBearingInvestments'], denominator: 'avg36m' },
  receivables_to_market_cap_24m: { numerator: ['accountsReceivable'], denominator: 'avg24m' },
  receivables_to_market_cap_36m: { numerator: ['accountsReceivable'], denominator: 'avg36m' },
  debt_to_assets: { numerator: ['totalDebt'], denominator: 'totalAssets' },
  cash_and_securities_to_assets: { numerator: ['cashAndEquivalents', 'interestBearingInvestments'], denominator: 'totalAssets' },
  receivables_to_assets: { numerator: ['accountsReceivable'], denominator: 'totalAssets' },
  receivables_and_cash_to_assets: { numerator: ['accountsReceivable', 'cashAndEquivalents'], denominator: 'totalAssets' },
  interest_income_to_revenue: { numerator: ['interestIncome'], denominator: 'totalRevenue' },
};

/** Whether a ratio moves with the price (its denominator is a market cap) rather than resting on the filing alone. */
export function ratioReadsPrice(key: RatioKey): boolean {
  const d = RATIO_PARTS[key].denominator;
  return d !== 'totalAssets' && d !== 'totalRevenue';
}

/**
 * A computed ratio as its input figures, for exact comparison with a limit (engine/exact.ts).
 * Built only near a limit, so the hot path allocates nothing for it; valid only for a ratio that
 * `computeRatios` computed (every figure it needs is then a usable number).
 */
export function ratioFraction(input: ScreeningInput, key: RatioKey): Fraction {
  const parts = RATIO_PARTS[key];
  const f = input.fundamentals!;
  const d = parts.denominator;
  const denominator = d === 'totalAssets' || d === 'totalRevenue' ? f[d] : input.marketCap[d];
  return { numerator: parts.numerator.map((field) => f[field] ?? 0), denominator: denominator ?? 0 };
}

/** The cause of an average whose window misses months (engine/input-quality.ts). */
function monthsMissingCause(months: readonly string[]): string {
  return `months_missing:${months.join(' ')}`;
}

function monthsMissingText(months: readonly string[]): string {
  return (
    `no month-end price for ${formatMonthRuns(months)} (an average needs the month-end before the screening date's month ` +
    `and misses at most ${STALENESS_LIMITS.maxMissingMonths} months)`
  );
}

/** Human-readable explanation of a cause code. */
export function describeCause(cause: string): string {
  const fixed = CAUSE_TEXT[cause];
  if (fixed !== undefined) return fixed;
  const colon = cause.indexOf(':');
  const kind = cause.slice(0, colon);
  if (kind === 'months_missing') return monthsMissingText(cause.slice(colon + 1).split(' '));
  const label = FIELD_LABEL[cause.slice(colon + 1)] ?? cause.slice(colon + 1);
  if (kind === 'not_reported') return `${label} not reported`;
  if (kind === 'negative') return `${label} is negative`;
  if (kind === 'non_positive') return `${label} is not positive`;
  return cause;
}

/** Input amount, or a cause code when it cannot be used. */
function amount(f: Fundamentals, field: AmountField): number | string {
  const v = f[field];
  if (v === null || !Number.isFinite(v)) return `not_reported:${field}`;
  if (v < 0) return `negative:${field}`;
  return v;
}

function denominator(v: number | null, name: string): number | string {
  if (v === null || !Number.isFinite(v)) return `not_reported:${name}`;
  if (v <= 0) return `non_positive:${name}`;
  return v;
}

/** An average market cap, or why it cannot be used: too short a history, or months missing from its window. */
function averageDenominator(state: AverageState, missing: readonly string[], v: number | null, name: string): number | string {
  if (state === 'too_short') return 'history_too_short';
  if (state === 'incomplete') return monthsMissingCause(missing);
  return denominator(v, name);
}

function sum(a: number | string, b: number | string): number | string {
  if (typeof a === 'string') return a;
  if (typeof b === 'string') return b;
  return a + b;
}

/**
 * Stores one ratio, or the cause it cannot be computed. A module function, not a closure: tsx
 * names every closure bound to a name each time it is created, which costs on the hot path.
 */
function setRatio(
  values: Ratios,
  causes: Partial<Record<RatioKey, string>>,
  key: RatioKey,
  num: number | string,
  den: number | string,
): void {
  if (typeof num === 'string') causes[key] = num;
  else if (typeof den === 'string') causes[key] = den;
  else {
    const ratio = num / den;
    // Extreme inputs (a tiny denominator) can overflow: never emit a non-finite ratio.
    if (Number.isFinite(ratio)) values[key] = ratio;
    else causes[key] = 'ratio_overflow';
  }
}

/** Compute all ratios (each in 0..1, may exceed 1) for one screen. */
export function computeRatios(input: ScreeningInput, q: InputQuality): RatioSet {
  const values: Ratios = {
    debt_to_market_cap_spot: null,
    debt_to_market_cap_24m: null,
    debt_to_market_cap_36m: null,
    cash_and_securities_to_market_cap_spot: null,
    cash_and_securities_to_market_cap_24m: null,
    cash_and_securities_to_market_cap_36m: null,
    receivables_to_market_cap_24m: null,
    receivables_to_market_cap_36m: null,
    debt_to_assets: null,
    cash_and_securities_to_assets: null,
    receivables_to_assets: null,
    receivables_and_cash_to_assets: null,
    interest_income_to_revenue: null,
  };
  const causes: Partial<Record<RatioKey, string>> = {};
  const f = input.fundamentals;
  if (f === null || q.fundamentals !== 'ok') {
    const cause = `fundamentals_${q.fundamentals}`;
    for (const key of Object.keys(values) as RatioKey[]) causes[key] = cause;
    return { values, causes, inputs: null, atLeast: NO_BOUNDS };
  }
  // Built only when the filing records its figures' sources (real filings), so synthetic screens stay as fast.
  const inputs = f.figureSources ? ratioInputs(f, f.figureSources) : null;

  const debt = amount(f, 'totalDebt');
  const cash = amount(f, 'cashAndEquivalents');
  const cashAndSecurities = sum(cash, amount(f, 'interestBearingInvestments'));
  const receivables = amount(f, 'accountsReceivable');
  const mc = input.marketCap;
  const mismatch = q.currencyMismatch ? 'currency_mismatch' : null;
  const spot = mismatch ?? (q.price === 'ok' ? denominator(mc.spot, 'spot') : `price_${q.price}`);
  const avg24 = mismatch ?? averageDenominator(q.avg24, q.missing24, mc.avg24m, 'avg24m');
  const avg36 = mismatch ?? averageDenominator(q.avg36, q.missing36, mc.avg36m, 'avg36m');
  const assets = denominator(f.totalAssets, 'totalAssets');
  const revenue = denominator(f.totalRevenue, 'totalRevenue');

  setRatio(values, causes, 'debt_to_market_cap_spot', debt, spot);
  setRatio(values, causes, 'debt_to_market_cap_24m', debt, avg24);
  setRatio(values, causes, 'debt_to_market_cap_36m', debt, avg36);
  setRatio(values, causes, 'cash_and_securities_to_market_cap_spot', cashAndSecurities, spot);
  setRatio(values, causes, 'cash_and_securities_to_market_cap_24m', cashAndSecurities, avg24);
  setRatio(values, causes, 'cash_and_securities_to_market_cap_36m', cashAndSecurities, avg36);
  setRatio(values, causes, 'receivables_to_market_cap_24m', receivables, avg24);
  setRatio(values, causes, 'receivables_to_market_cap_36m', receivables, avg36);
  setRatio(values, causes, 'debt_to_assets', debt, assets);
  setRatio(values, causes, 'cash_and_securities_to_assets', cashAndSecurities, assets);
  setRatio(values, causes, 'receivables_to_assets', receivables, assets);
  setRatio(values, causes, 'receivables_and_cash_to_assets', sum(receivables, cash), assets);
  setRatio(values, causes, 'interest_income_to_revenue', amount(f, 'interestIncome'), revenue);
  const floor = f.interestIncomeAtLeast;
  const bounded =
    values.interest_income_to_revenue === null && typeof revenue === 'number' && floor != null && Number.isFinite(floor) && floor > 0;
  return { values, causes, inputs, atLeast: bounded ? { interest_income_to_revenue: floor / revenue } : NO_BOUNDS };
}
