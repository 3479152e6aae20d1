import { FRAMEWORKS } from '../../engine/index.ts';
import { MARKETS } from '../../common/markets.ts';
import type { ApiReads } from '../../reads/api-reads.ts';
import type { Grant } from '../../common/grants.ts';

/** The framework list (docs/api.md); `key_scope` only when access control identified a key. */
export function listFrameworks(grant: Grant | undefined): Record<string, unknown> {
  return {
    count: FRAMEWORKS.length,
    frameworks: FRAMEWORKS.map(({ id, label, tradition }) => ({ id, label, tradition })),
    ...(grant
      ? {
          key_scope: grant.keyScope ?? {
            allowed_frameworks: grant.allowedFrameworks,
            allowed_markets: grant.allowedMarkets,
            allowed_endpoints: grant.allowedEndpoints ?? null,
          },
        }
      : {}),
  };
}

/** Every market with its live listing count (stocks and funds) and exchange codes (ISO 10383 MICs). */
export function listMarkets(reads: ApiReads): Record<string, unknown> {
  const counts = reads.listingCounts();
  return {
    count: MARKETS.length,
    markets: MARKETS.map((m) => ({
      slug: m.slug,
      name: m.name,
      market_key: m.marketKey,
      total_listed: counts.get(m.marketKey) ?? 0,
      currency: m.currency,
      exchange_codes: m.exchanges.map((e) => e.mic),
      exchanges: m.exchanges.map((e) => ({ code: e.mic, name: e.name })),
    })),
  };
}

/** Universe search: ticker prefix and name matches, best first. */
export function searchUniverse(reads: ApiReads, query: string, market: string | null, limit: number): Record<string, unknown> {
  const results = reads
    .search(query, market, limit)
    .map((l) => ({ ticker: l.ticker, name: l.name, market: l.market, exchange: l.exchange, kind: l.kind }));
  return { query, count: results.length, results };
}
