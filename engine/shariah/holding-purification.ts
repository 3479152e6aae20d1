/**
 * Purification of an actual holding: a lot of shares held from one day to another, walked
 * period by period through the point-in-time snapshots in force while it was held
 * (docs/frameworks/README.md, "Purification of a holding"). Pure: the caller reads the
 * snapshots, their filings' figures and the splits.
 */
import { addDays, dayNumber } from '../dates.ts';
import type { PurificationMethod, VerdictStatus } from '../result-types.ts';
import { dividendRatioOf, impermissibleIncomeOf } from './purification.ts';

/** Trailing-twelve-month figures are spread evenly over this many days: one day held counts 1/365 of them. */
export const DAYS_PER_TWELVE_MONTHS = 365;

/**
 * A snapshot stays in force for at most this many days after its date (a year-end backfill's
 * longest gap); a day further from any snapshot has no figures and counts as missing.
 */
export const MAX_CARRY_DAYS = 366;

/** One snapshot's purification figures for one framework, with the filing behind them. */
export interface PurificationPoint {
  snapshotDate: string;
  status: VerdictStatus;
  /** The framework's own method as stored with the verdict; null when the snapshot has none. */
  method: PurificationMethod | null;
  /** The framework's non-permissible income ÷ total income (0..1); null when unknown. */
  nonPermissibleIncomeRatio: number | null;
  /** Why that ratio is an estimate (a figure behind it stands in for the one named); null when it is not. */
  proxy: string | null;
  filing: { sourceRef: string; periodEnd: string; filedOn: string } | null;
  /** ISO 4217 currency of the filing's figures; null when the filing is not in the lake. */
  currency: string | null;
  /** Trailing-twelve-month dividends per share, on the filing's share basis. */
  dividendsPerShare: number | null;
  /** Trailing-twelve-month total revenue. */
  totalRevenue: number | null;
  sharesOutstanding: number | null;
}

/** A stock split: from `exDate` on, each old share is `ratio` new shares. */
export interface ShareSplit {
  exDate: string;
  ratio: number;
}

/** Shares held on each day from `boughtOn` up to, not including, `endsBefore` (`YYYY-MM-DD`). */
export interface HoldingLot {
  shares: number;
  boughtOn: string;
  endsBefore: string;
}

/** One stretch of the holding under one snapshot (or under none: then every amount is missing). */
export interface HoldingPeriod {
  from: string;
  /** Last day held in the period. */
  through: string;
  days: number;
  point: PurificationPoint | null;
  /** The lot's shares on the filing's share basis (the lot's count adjusted for splits between purchase and filing). */
  sharesOnFilingBasis: number | null;
  dividendRatioPerShare: number | null;
  impermissibleIncomePerShare: number | null;
  /** Shares × dividends per share × ratio × days ÷ 365; null when an input is missing. */
  dividendBased: number | null;
  /** Shares × impermissible income per share × days ÷ 365; null when an input is missing. */
  incomeBased: number | null;
  /** Each missing input, said plainly; empty when both amounts are known. */
  missing: string[];
}

/** A method's sum over periods; `complete` only when every period has its amount. */
export interface MethodTotal {
  amount: number | null;
  amountKnown: number;
  complete: boolean;
  periodsMissing: number;
}

/** Product of the ratios of splits with an ex-date on or before `date`. */
function splitProduct(splits: readonly ShareSplit[], date: string): number {
  return splits.reduce((product, s) => (s.exDate <= date && s.ratio > 0 ? product * s.ratio : product), 1);
}

/** The lot's shares on the share basis of a filing filed on `filedOn`: the same factor on every day held. */
export function sharesOnBasis(shares: number, boughtOn: string, filedOn: string, splits: readonly ShareSplit[]): number {
  return (shares * splitProduct(splits, filedOn)) / splitProduct(splits, boughtOn);
}

function missingPeriod(from: string, endsBefore: string, why: string): HoldingPeriod {
  return {
    from,
    through: addDays(endsBefore, -1),
    days: dayNumber(endsBefore) - dayNumber(from),
    point: null,
    sharesOnFilingBasis: null,
    dividendRatioPerShare: null,
    impermissibleIncomePerShare: null,
    dividendBased: null,
    incomeBased: null,
    missing: [why],
  };
}

function coveredPeriod(
  lot: HoldingLot,
  from: string,
  endsBefore: string,
  point: PurificationPoint,
  splits: readonly ShareSplit[],
  listingCurrency: string,
): HoldingPeriod {
  const days = dayNumber(endsBefore) - dayNumber(from);
  const missing: string[] = [];
  const npi = point.nonPermissibleIncomeRatio;
  if (point.filing === null) missing.push(`snapshot ${point.snapshotDate} rests on no filing`);
  else if (point.currency === null) missing.push(`filing ${point.filing.sourceRef} is not in the warehouse`);
  else if (point.currency !== listingCurrency)
    missing.push(`filing ${point.filing.sourceRef} reports in ${point.currency}, the listing trades in ${listingCurrency}`);
  if (npi === null) missing.push(`the non-permissible income ratio of snapshot ${point.snapshotDate} is unknown`);
  const usable = missing.length === 0 && point.filing !== null;
  const byDividend = usable ? dividendRatioOf(point.dividendsPerShare, npi) : null;
  const byIncome = usable ? impermissibleIncomeOf(npi, point.totalRevenue, point.sharesOutstanding) : null;
  if (usable && byDividend === null) missing.push(`dividends per share of filing ${point.filing!.sourceRef} are unknown`);
  if (usable && byIncome === null)
    missing.push(`revenue or shares outstanding of filing ${point.filing!.sourceRef} are unknown or not positive`);
  const shares = usable ? sharesOnBasis(lot.shares, lot.boughtOn, point.filing!.filedOn, splits) : null;
  const amount = (perShare: number | null): number | null =>
    perShare === null || shares === null ? null : (shares * perShare * days) / DAYS_PER_TWELVE_MONTHS;
  return {
    from,
    through: addDays(endsBefore, -1),
    days,
    point,
    sharesOnFilingBasis: shares,
    dividendRatioPerShare: byDividend,
    impermissibleIncomePerShare: byIncome,
    dividendBased: amount(byDividend),
    incomeBased: amount(byIncome),
    missing,
  };
}

/**
 * The periods of a lot: for each snapshot in force on a day held (the latest on or before it,
 * at most `MAX_CARRY_DAYS` old), the stretch of days it covers. `points` are one framework's
 * snapshots of the ticker in date order, one per day; days no snapshot covers form periods of
 * their own with every amount missing.
 */
export function holdingPeriods(
  lot: HoldingLot,
  points: readonly PurificationPoint[],
  splits: readonly ShareSplit[],
  listingCurrency: string,
): HoldingPeriod[] {
  const periods: HoldingPeriod[] = [];
  let cursor = lot.boughtOn;
  let i = -1;
  while (i + 1 < points.length && points[i + 1]!.snapshotDate <= cursor) i += 1;
  while (cursor < lot.endsBefore) {
    const next = points[i + 1]?.snapshotDate;
    const end = next !== undefined && next < lot.endsBefore ? next : lot.endsBefore;
    if (i < 0) {
      periods.push(missingPeriod(cursor, end, next === undefined ? 'no snapshot in force' : `no snapshot in force before ${next}`));
    } else {
      const point = points[i]!;
      const staleFrom = addDays(point.snapshotDate, MAX_CARRY_DAYS + 1);
      const coveredEnd = staleFrom < end ? staleFrom : end;
      if (cursor < coveredEnd) periods.push(coveredPeriod(lot, cursor, coveredEnd, point, splits, listingCurrency));
      if (coveredEnd < end) {
        const why = `no snapshot within ${MAX_CARRY_DAYS} days (the latest before is dated ${point.snapshotDate})`;
        periods.push(missingPeriod(coveredEnd > cursor ? coveredEnd : cursor, end, why));
      }
    }
    cursor = end;
    i += 1;
  }
  return periods;
}

/** The amount of a period by a method: the framework's own, or one of the two named. */
export function periodAmount(period: HoldingPeriod, method: PurificationMethod): number | null {
  return method === 'dividend_ratio' ? period.dividendBased : period.incomeBased;
}

/** Sum of one method's amounts; null amount (fail closed) when any period lacks it. */
export function methodTotal(periods: readonly HoldingPeriod[], amountOf: (p: HoldingPeriod) => number | null): MethodTotal {
  let known = 0;
  let missing = 0;
  for (const period of periods) {
    const amount = amountOf(period);
    if (amount === null) missing += 1;
    else known += amount;
  }
  return { amount: missing === 0 ? known : null, amountKnown: known, complete: missing === 0, periodsMissing: missing };
}
