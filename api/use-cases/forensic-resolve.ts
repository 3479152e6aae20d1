import { MARKET_KEYS } from '../../common/markets.ts';
import type { ApiReads } from '../../reads/api-reads.ts';
import type { Listing } from '../../reads/api-reads-types.ts';
import { badRequest, notFound, tickerIsAFund } from '../../common/app-error.ts';

const search = (ticker: string): string => `look it up with GET /api/universe/search?q=${encodeURIComponent(ticker)}`;

/**
 * The one listing a market-less forensic path means: the `market` the caller named; else the
 * US listing when the ticker is listed there; else the only listing. Several non-US listings
 * → 400 naming them as `market:ticker`; none → 404; a fund → 400 `ticker_is_a_fund` (funds file
 * no accounts of their own here).
 */
export function resolveForensicListing(universe: ApiReads, ticker: string, market: string | null): Listing {
  const listings = MARKET_KEYS.map((m) => universe.listing(m, ticker))
    .filter((l): l is Listing => l !== undefined)
    .sort((a, b) => a.market.localeCompare(b.market));
  let chosen: Listing | undefined;
  if (market !== null) {
    chosen = listings.find((l) => l.market === market);
    if (!chosen) {
      const elsewhere = listings.map((l) => `${l.market}:${l.ticker}`);
      throw notFound(
        `ticker '${ticker}' is not listed in market '${market}'${elsewhere.length ? `; it is listed as ${elsewhere.join(', ')}` : `; ${search(ticker)}`}`,
        'ticker_not_found',
      );
    }
  } else if (listings.length === 0) {
    throw notFound(`ticker '${ticker}' is not listed in any market; ${search(ticker)}`, 'ticker_not_found');
  } else {
    chosen = listings.find((l) => l.market === 'us') ?? (listings.length === 1 ? listings[0] : undefined);
    if (!chosen) {
      const candidates = listings.map((l) => `${l.market}:${l.ticker}`).join(', ');
      throw badRequest(
        `ticker '${ticker}' is listed in several markets and none is us: ${candidates}; add ?market=<key> to choose one`,
        'ambiguous_ticker',
      );
    }
  }
  if (chosen.kind === 'fund') {
    throw tickerIsAFund(
      chosen.market,
      chosen.ticker,
      "forensic scores are computed from a company's own filings, which a fund does not have",
    );
  }
  return chosen;
}
