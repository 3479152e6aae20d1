import { addDays, HISTORY_START, isIsoDate, utcDay } from '../../engine/dates.ts';
import { SHARIAH_FRAMEWORK_IDS, type FrameworkId, type ShariahFrameworkId } from '../../engine/index.ts';
import type { PurificationMethod } from '../../engine/result-types.ts';
import {
  DAYS_PER_TWELVE_MONTHS,
  MAX_CARRY_DAYS,
  holdingPeriods,
  methodTotal,
  periodAmount,
  type HoldingLot,
  type HoldingPeriod,
} from '../../engine/shariah/holding-purification.ts';
import { SHARIAH_VERSIONS } from '../../engine/shariah/index-of-versions.ts';
import type { PurificationReads } from '../../warehouse/purification-reads.ts';
import { badRequest, notFound, unprocessable } from '../../common/app-error.ts';
import type { ScreenService } from '../screen-service.ts';
import { SYNTHETIC_NOTICE } from '../../serving/screen-report.ts';

/** One lot as the client sent it (shape already checked by the request schema). */
export interface LotRequest {
  shares: number;
  bought_on: string;
  sold_on?: string | undefined;
}

export interface PurificationRequest {
  market: string;
  ticker: string;
  framework: ShariahFrameworkId;
  lots: readonly LotRequest[];
}

/** How the amounts are computed, sent with every answer (docs/frameworks/README.md, "Purification of a holding"). */
export const PURIFICATION_RULES = Object.freeze({
  dividend_based:
    `shares × trailing-twelve-month dividends per share × the framework's non-permissible ` +
    `income ratio, × days held ÷ ${DAYS_PER_TWELVE_MONTHS}: the warehouse holds each filing's ` +
    `trailing-twelve-month dividends per share, not dividend events with ex-dates, so dividends count as ` +
    `earned evenly over the days held`,
  income_based:
    `shares × (the framework's non-permissible income ratio × trailing-twelve-month revenue ` +
    `÷ shares outstanding), × days held ÷ ${DAYS_PER_TWELVE_MONTHS}: each day held carries ` +
    `1/${DAYS_PER_TWELVE_MONTHS} of the twelve months' impermissible income per share`,
  periods:
    `a lot is held from bought_on up to, not including, sold_on (through today when unsold); each ` +
    `period is the stretch under one point-in-time snapshot (the latest on or before each day, at most ` +
    `${MAX_CARRY_DAYS} days old) and uses that snapshot's ratio and filing; a period without one has no ` +
    `amount, and its totals are null (complete: false)`,
});

/** The framework's purification method in its current methodology version. */
export function purificationMethodOf(framework: ShariahFrameworkId): PurificationMethod {
  return SHARIAH_VERSIONS[framework].at(-1)!.purification;
}

/** The framework id if it has a purification method; 422 naming the ones that do otherwise. */
export function purificationFramework(framework: FrameworkId): ShariahFrameworkId {
  const shariah = SHARIAH_FRAMEWORK_IDS.find((id) => id === framework);
  if (shariah === undefined) {
    throw unprocessable(
      `framework: ${framework} has no purification (it screens by exclusion, not by income); frameworks with purification: ${SHARIAH_FRAMEWORK_IDS.join(', ')}`,
      'no_purification',
    );
  }
  return shariah;
}

function checkDate(value: string, field: string, today: string): string {
  if (!isIsoDate(value)) throw badRequest(`${field}: '${value}' is not a calendar date; expected YYYY-MM-DD`, 'invalid_date');
  if (value > today)
    throw badRequest(`${field}: ${value} is in the future; the latest valid date is today, ${today} (UTC)`, 'invalid_date');
  return value;
}

/** The lots as days held; 400 for a bad date or order, 422 for a lot that starts before the history. */
export function holdingLots(lots: readonly LotRequest[], today: string): HoldingLot[] {
  return lots.map((lot, i) => {
    const boughtOn = checkDate(lot.bought_on, `lots.${i}.bought_on`, today);
    if (boughtOn < HISTORY_START) {
      throw unprocessable(
        `lots.${i}.bought_on: ${boughtOn} is before ${HISTORY_START}, where compliance history starts; ` +
          `purification can be computed only for days held from ${HISTORY_START} on`,
        'before_history',
      );
    }
    if (lot.sold_on === undefined) return { shares: lot.shares, boughtOn, endsBefore: addDays(today, 1) };
    const soldOn = checkDate(lot.sold_on, `lots.${i}.sold_on`, today);
    if (soldOn <= boughtOn) {
      throw badRequest(
        `lots.${i}.sold_on: ${soldOn} is not after bought_on ${boughtOn}; sold_on is the day the lot was sold, the first day no longer held`,
        'invalid_date',
      );
    }
    return { shares: lot.shares, boughtOn, endsBefore: soldOn };
  });
}

function totalsJson(periods: readonly HoldingPeriod[], fallback: PurificationMethod): Record<string, unknown> {
  const json = (amountOf: (p: HoldingPeriod) => number | null) => {
    const t = methodTotal(periods, amountOf);
    return { amount: t.amount, amount_known: t.amountKnown, complete: t.complete, periods_missing: t.periodsMissing };
  };
  return {
    dividend_based: json((p) => p.dividendBased),
    income_based: json((p) => p.incomeBased),
    framework_method: json((p) => (p.point === null ? null : periodAmount(p, p.point.method ?? fallback))),
  };
}

function periodJson(p: HoldingPeriod, currency: string): Record<string, unknown> {
  const point = p.point;
  return {
    from: p.from,
    through: p.through,
    days: p.days,
    snapshot: point === null ? null : { date: point.snapshotDate, status: point.status, framework_method: point.method },
    filing:
      point?.filing == null
        ? null
        : { source_ref: point.filing.sourceRef, period_end: point.filing.periodEnd, filed_on: point.filing.filedOn || null },
    non_permissible_income_ratio: point?.nonPermissibleIncomeRatio ?? null,
    estimate: point?.proxy ?? null,
    dividends_per_share_ttm: point?.dividendsPerShare ?? null,
    dividend_ratio_per_share: p.dividendRatioPerShare,
    impermissible_income_per_share: p.impermissibleIncomePerShare,
    shares_on_filing_basis: p.sharesOnFilingBasis,
    dividend_based: p.dividendBased,
    income_based: p.incomeBased,
    currency,
    missing: p.missing,
  };
}

/**
 * The amount to purify for lots of one ticker under one Shariah framework, period by period
 * from the point-in-time snapshots and their filings (docs/api.md, "Purification"). 404 when the
 * ticker is not listed; 422 when no snapshot covers a lot at all.
 */
export async function purifyHolding(
  service: ScreenService,
  lake: PurificationReads,
  request: PurificationRequest,
): Promise<Record<string, unknown>> {
  const { market, ticker, framework } = request;
  const today = utcDay(service.now());
  const lots = holdingLots(request.lots, today);
  const listing = service.reads.listing(market, ticker);
  if (!listing) {
    throw notFound(
      `ticker '${ticker}' is not listed in market '${market}'; look it up with GET /api/universe/search?q=${encodeURIComponent(ticker)}`,
      'ticker_not_found',
    );
  }
  const before = lots.reduce((latest, lot) => (lot.endsBefore > latest ? lot.endsBefore : latest), lots[0]!.endsBefore);
  const earliest = lots.reduce((first, lot) => (lot.boughtOn < first ? lot.boughtOn : first), lots[0]!.boughtOn);
  // A snapshot older than MAX_CARRY_DAYS before the first day held is no longer in force: no need to read it.
  const from = addDays(earliest, -MAX_CARRY_DAYS);
  const history = await lake.history({ market, ticker, framework, from, before });
  const method = purificationMethodOf(framework);
  const lotResults = lots.map((lot) => ({ lot, periods: holdingPeriods(lot, history.points, history.splits, listing.currency) }));
  const uncovered = lotResults.findIndex(({ periods }) => periods.every((p) => p.point === null));
  if (uncovered >= 0) {
    const lot = lots[uncovered]!;
    const span = await lake.snapshotSpan(market, ticker);
    const known =
      span === null
        ? 'it has no snapshots yet'
        : `its snapshots run from ${span.first} to ${span.last}, each in force for at most ${MAX_CARRY_DAYS} days`;
    throw unprocessable(
      `lots.${uncovered}: no compliance snapshot of ${market}/${ticker} is in force from ${lot.boughtOn} to ${addDays(lot.endsBefore, -1)}; ${known}`,
      'no_history',
    );
  }
  const all = lotResults.flatMap((r) => r.periods);
  const totals = totalsJson(all, method);
  const byMethod = totals.framework_method as { amount: number | null; complete: boolean };
  return {
    market,
    ticker,
    name: listing.name,
    framework,
    method,
    currency: listing.currency,
    amount_to_purify: byMethod.amount,
    complete: byMethod.complete,
    estimated_periods: all.filter((p) => p.point?.proxy != null).length,
    totals,
    lots: lotResults.map(({ lot, periods }, i) => ({
      shares: lot.shares,
      bought_on: lot.boughtOn,
      sold_on: request.lots[i]!.sold_on ?? null,
      held_through: addDays(lot.endsBefore, -1),
      days: periods.reduce((sum, p) => sum + p.days, 0),
      totals: totalsJson(periods, method),
      periods: periods.map((p) => periodJson(p, listing.currency)),
    })),
    rules: PURIFICATION_RULES,
    provenance: {
      data_sources: history.dataSources,
      synthetic: history.synthetic,
      ...(history.synthetic ? { notice: SYNTHETIC_NOTICE } : {}),
    },
  };
}
