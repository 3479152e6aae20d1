import { utcDay } from '../../engine/dates.ts';
import {
  MONEY_DECIMALS,
  PER_SHARE_DECIMALS,
  ZAKAT_RATES,
  zakatDue,
  zakatFigureLabel,
  type ZakatFigureName,
  type ZakatHolding,
  type ZakatMethod,
  type ZakatYear,
} from '../../engine/zakat/zakat-due.ts';
import { MAX_PRICE_AGE_DAYS, ZAKAT_FIGURES, type ZakatLake, type ZakatReadsResult } from '../../warehouse/zakat-reads.ts';
import { notFound, tickerIsAFund } from '../../common/app-error.ts';
import type { ScreenService } from '../screen-service.ts';
import { SYNTHETIC_NOTICE } from '../../serving/screen-report.ts';

export interface ZakatRequest {
  market: string;
  ticker: string;
  method: ZakatMethod;
  year: ZakatYear;
  holding: ZakatHolding;
  /** `YYYY-MM-DD`, already checked as a history date. */
  asOf: string;
}

/** How the amounts are computed, sent with every answer (docs/frameworks/zakat.md). */
export const ZAKAT_RULES = Object.freeze({
  long_term:
    "AAOIFI Shari'ah Standard No. 35 (Zakah), for shares held to benefit from their yield: zakat on the holder's share of the " +
    "company's zakatable assets, (cash and cash equivalents + receivables + inventory − current liabilities) ÷ shares outstanding " +
    'from the filing in force on the zakat date (the latest filed on or before it), × shares held; a negative net gives 0. ' +
    'Fixed assets and long-term investments are not zakatable; short-term investments are not counted (the filings do not say ' +
    'which are held for trade), so the amount can be too low for a company that holds them',
  trading: 'for shares held to sell at a profit: zakat on their market value on the zakat date (shares × close, or the value sent)',
  rate: `${ZAKAT_RATES.lunar * 100}% a lunar year; ${ZAKAT_RATES.solar * 100}% a solar year (2.5% × 365.25 ÷ 354.37, the longer year)`,
  rounding:
    `every figure is read as the decimal it stands for and computed exactly; amounts are rounded half away from zero once, ` +
    `to ${MONEY_DECIMALS} decimals, per-share figures to ${PER_SHARE_DECIMALS}; the close is the latest at most ` +
    `${MAX_PRICE_AGE_DAYS} days before the zakat date`,
});

const ROLE: Record<ZakatFigureName, 'asset' | 'deduction' | 'share_count'> = {
  cash_and_equivalents: 'asset',
  accounts_receivable: 'asset',
  inventory: 'asset',
  current_liabilities: 'deduction',
  shares_outstanding: 'share_count',
};

/**
 * The zakat answer for one holding from what the lake holds on the date (pure: the portfolio
 * answer calls it with the inputs it has read). `listingCurrency` is the currency of prices and
 * of the value sent; a filing in another currency is not converted and leaves long_term
 * `insufficient_data`.
 */
export function zakatAnswer(
  request: ZakatRequest,
  listing: { name: string; currency: string },
  read: ZakatReadsResult,
): Record<string, unknown> {
  const { filing, price } = read;
  const longTerm = request.method === 'long_term';
  const foreign = longTerm && filing !== null && filing.currency !== '' && filing.currency !== listing.currency;
  const outcome = zakatDue({
    method: request.method,
    year: request.year,
    holding: request.holding,
    price: price?.close ?? null,
    figures: foreign ? null : (filing?.figures ?? null),
    splitsSinceFiling: filing?.splitsSinceFiling ?? 1,
  });
  const missing = foreign
    ? [
        `a filing in the listing's currency: the filing in force reports in ${filing.currency}, ` +
          `the listing trades in ${listing.currency}, and no conversion is made`,
        ...outcome.missing.filter((m) => !m.startsWith('a filing in force')),
      ]
    : outcome.missing;
  const sources = [filing?.dataSource, price?.dataSource].filter((s): s is string => s !== undefined);
  const synthetic = filing?.synthetic === true || price?.synthetic === true;
  return {
    market: request.market,
    ticker: request.ticker,
    name: listing.name,
    as_of: request.asOf,
    method: request.method,
    year: request.year,
    rate: outcome.rate,
    currency: listing.currency,
    status: outcome.status,
    zakat_due: outcome.zakatDue,
    zakat_base: outcome.zakatBase,
    zakatable_assets_per_share: outcome.zakatableAssetsPerShare,
    net_zakatable_assets: outcome.netZakatableAssets,
    holding: {
      shares: outcome.shares,
      market_value: outcome.marketValue,
      price: price === null ? null : { date: price.date, close: price.close },
    },
    filing:
      longTerm && filing !== null
        ? {
            source_ref: filing.sourceRef,
            period_end: filing.periodEnd,
            filed_on: filing.filedOn,
            splits_since_filing: filing.splitsSinceFiling,
          }
        : null,
    figures:
      longTerm && filing !== null
        ? ZAKAT_FIGURES.map((name) => ({
            name,
            label: zakatFigureLabel(name),
            role: ROLE[name],
            value: filing.figures[name],
            source: filing.figureSources[name] ?? null,
          }))
        : [],
    missing,
    notes: outcome.notes,
    rules: ZAKAT_RULES,
    provenance: {
      data_sources: [...new Set(sources)].sort(),
      synthetic,
      ...(synthetic ? { notice: SYNTHETIC_NOTICE } : {}),
    },
  };
}

/**
 * Zakat due on a holding of one listed company's shares on `asOf` (docs/frameworks/zakat.md).
 * 404 when the ticker is not listed; 400 `ticker_is_a_fund` for a fund (its zakat is that of its holdings).
 */
export async function zakatHolding(service: ScreenService, lake: ZakatLake, request: ZakatRequest): Promise<Record<string, unknown>> {
  const { market, ticker } = request;
  const listing = service.reads.listing(market, ticker);
  if (!listing) {
    throw notFound(
      `ticker '${ticker}' is not listed in market '${market}'; look it up with GET /api/universe/search?q=${encodeURIComponent(ticker)}`,
      'ticker_not_found',
    );
  }
  if (listing.kind === 'fund') {
    throw tickerIsAFund(market, ticker, "zakat is computed on a company's own balance sheet; ask for each of the fund's holdings");
  }
  return zakatAnswer(request, listing, await lake.zakatInputs(market, ticker, request.asOf));
}

/** Today (UTC) by the service's clock: the default zakat date. */
export function zakatToday(service: ScreenService): string {
  return utcDay(service.now());
}
