/**
 * Time validity of the inputs (staleness limits) and the per-call screening window. Values
 * that are stale, dated after the screening date, or from too short or gappy a price history are
 * never used for a verdict: the checks that need them report `insufficient_data`.
 */
import { dayNumber, isIsoDate, monthsBefore } from './dates.ts';
import type { ScreeningInput } from './inputs.ts';

/** Documented staleness limits (docs/frameworks/README.md, "Staleness limits"). */
export const STALENESS_LIMITS = Object.freeze({
  /** A filing's period end may be at most this many months before the screening date. */
  fundamentalsPeriodEndMonths: 16,
  /** The spot price may be at most this many calendar days old. */
  spotPriceDays: 10,
  /** A business-activity exposure may be at most this many months old. */
  exposureMonths: 24,
  /** Fewest month-end observations behind the 24-month average that we accept. */
  minMonths24: 12,
  /** Fewest month-end observations behind the 36-month average that we accept. */
  minMonths36: 18,
  /**
   * Most months an averaging window may miss after its first month-end price; and the month
   * before the screening date's month is never one of them (an average must reach it).
   */
  maxMissingMonths: 2,
});

export type FundamentalsState = 'ok' | 'missing' | 'stale' | 'after_screening_date' | 'bad_date';
export type PriceState = 'ok' | 'missing' | 'stale' | 'after_screening_date' | 'bad_date';
/** `incomplete`: the window misses the month before the screening date's, or more months than allowed. */
export type AverageState = 'ok' | 'short' | 'too_short' | 'incomplete';

export interface InputQuality {
  fundamentals: FundamentalsState;
  price: PriceState;
  avg24: AverageState;
  avg36: AverageState;
  /** Months (`YYYY-MM`) each window misses (`MarketCaps.missingMonths` within it); one shared empty list when none. */
  missing24: readonly string[];
  missing36: readonly string[];
  /** Fundamentals reported in a currency other than the listing's (market caps are in the listing's). */
  currencyMismatch: boolean;
  /** Exposures dated before this (`YYYY-MM-DD`) are stale. */
  exposureCutoff: string;
}

interface Cutoffs {
  fundamentals: string;
  exposures: string;
  /** First month (`YYYY-MM`) of the 24- and 36-month windows, and the month before the screening date's. */
  window24: string;
  window36: string;
  previousMonth: string;
}

// Screening a universe uses one date for every company: memoise the date arithmetic.
const cutoffCache = new Map<string, Cutoffs>();

function cutoffsFor(screeningDate: string): Cutoffs {
  let c = cutoffCache.get(screeningDate);
  if (c === undefined) {
    if (cutoffCache.size > 50_000) cutoffCache.clear();
    c = {
      fundamentals: monthsBefore(screeningDate, STALENESS_LIMITS.fundamentalsPeriodEndMonths),
      exposures: monthsBefore(screeningDate, STALENESS_LIMITS.exposureMonths),
      window24: monthsBefore(screeningDate, 23).slice(0, 7),
      window36: monthsBefore(screeningDate, 35).slice(0, 7),
      previousMonth: monthsBefore(screeningDate, 1).slice(0, 7),
    };
    cutoffCache.set(screeningDate, c);
  }
  return c;
}

function fundamentalsState(input: ScreeningInput, cutoff: string): FundamentalsState {
  const f = input.fundamentals;
  if (f === null) return 'missing';
  if (!isIsoDate(f.periodEnd) || !isIsoDate(f.filedOn)) return 'bad_date';
  if (f.filedOn > input.screeningDate || f.periodEnd > input.screeningDate) return 'after_screening_date';
  return f.periodEnd < cutoff ? 'stale' : 'ok';
}

function priceState(input: ScreeningInput): PriceState {
  const d = input.marketCap.spotPriceDate;
  if (d === null || input.marketCap.spot === null) return 'missing';
  if (!isIsoDate(d)) return 'bad_date';
  if (d > input.screeningDate) return 'after_screening_date';
  const age = dayNumber(input.screeningDate) - dayNumber(d);
  return age > STALENESS_LIMITS.spotPriceDays ? 'stale' : 'ok';
}

const NO_MONTHS: readonly string[] = Object.freeze([]);

/** The months of `missing` (oldest first) from `first` to `last`; the list itself when all are. */
function missingWithin(missing: readonly string[] | undefined, first: string, last: string): readonly string[] {
  if (missing === undefined || missing.length === 0) return NO_MONTHS;
  let from = 0;
  while (from < missing.length && missing[from]! < first) from += 1;
  let to = missing.length;
  while (to > from && missing[to - 1]! > last) to -= 1;
  if (from === to) return NO_MONTHS;
  return from === 0 && to === missing.length ? missing : missing.slice(from, to);
}

function averageState(months: number, full: number, min: number, missing: readonly string[], previousMonth: string): AverageState {
  if (missing.length > STALENESS_LIMITS.maxMissingMonths || missing[missing.length - 1] === previousMonth) return 'incomplete';
  if (months >= full) return 'ok';
  return months >= min ? 'short' : 'too_short';
}

/** Assess the time validity of an input whose `screeningDate` is already validated. */
export function assessInputQuality(input: ScreeningInput): InputQuality {
  const f = input.fundamentals;
  const cutoffs = cutoffsFor(input.screeningDate);
  const mc = input.marketCap;
  const missing24 = missingWithin(mc.missingMonths, cutoffs.window24, cutoffs.previousMonth);
  const missing36 = missingWithin(mc.missingMonths, cutoffs.window36, cutoffs.previousMonth);
  return {
    fundamentals: fundamentalsState(input, cutoffs.fundamentals),
    price: priceState(input),
    avg24: averageState(mc.months24, 24, STALENESS_LIMITS.minMonths24, missing24, cutoffs.previousMonth),
    avg36: averageState(mc.months36, 36, STALENESS_LIMITS.minMonths36, missing36, cutoffs.previousMonth),
    missing24,
    missing36,
    currencyMismatch: f !== null && f.currency !== input.listing.currency,
    exposureCutoff: cutoffs.exposures,
  };
}
