import type { Listing } from './api-reads-types.ts';

/** Lower case without accents: `Nestlé` → `nestle`, `ÖZ` → `oz`. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** Match ranks, best first: exact ticker, ticker prefix, name prefix, a name word's prefix, name contains. */
const RANKS = 5;

interface Slice {
  /** Listing ids sorted by folded ticker (prefix search by binary search). */
  byTicker: Int32Array;
  /** Listing ids sorted by folded name (name scans return alphabetical matches). */
  byName: Int32Array;
}

/**
 * The ticker universe in memory with a search index: ticker prefix by binary search and a
 * linear scan of folded names (124k names scan in about 2 ms). Immutable; rebuilt on change.
 */
export class UniverseIndex {
  private readonly byKey = new Map<string, number>();
  private readonly tickers: string[];
  private readonly names: string[];
  private readonly all: Slice;
  private readonly perMarket = new Map<string, Slice>();
  readonly counts = new Map<string, number>();

  constructor(private readonly listings: readonly Listing[]) {
    this.tickers = listings.map((l) => foldText(l.ticker));
    this.names = listings.map((l) => ` ${foldText(l.name)}`);
    const ids: number[] = [];
    const marketIds = new Map<string, number[]>();
    listings.forEach((listing, id) => {
      this.byKey.set(`${listing.market}/${listing.ticker}`, id);
      ids.push(id);
      let list = marketIds.get(listing.market);
      if (!list) marketIds.set(listing.market, (list = []));
      list.push(id);
    });
    this.all = this.slice(ids);
    for (const [market, list] of marketIds) {
      this.perMarket.set(market, this.slice(list));
      this.counts.set(market, list.length);
    }
  }

  get size(): number {
    return this.listings.length;
  }

  get(market: string, ticker: string): Listing | undefined {
    const id = this.byKey.get(`${market}/${ticker}`);
    return id === undefined ? undefined : this.listings[id];
  }

  /** Up to `limit` listings matching `query` by ticker prefix or name, best match first. */
  search(query: string, market: string | null, limit: number): Listing[] {
    const q = foldText(query.trim());
    const slice = market === null ? this.all : this.perMarket.get(market);
    if (!slice || q.length === 0) return [];
    const buckets: number[][] = Array.from({ length: RANKS }, () => []);
    this.tickerMatches(slice, q, limit, buckets);
    this.nameMatches(slice, q, limit, buckets);
    const seen = new Set<number>();
    const out: Listing[] = [];
    for (const bucket of buckets) {
      for (const id of bucket) {
        if (out.length >= limit) return out;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push(this.listings[id]!);
      }
    }
    return out;
  }

  private tickerMatches(slice: Slice, q: string, limit: number, buckets: number[][]): void {
    const order = slice.byTicker;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.tickers[order[mid]!]! < q) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < order.length && buckets[1]!.length < limit; i += 1) {
      const id = order[i]!;
      const ticker = this.tickers[id]!;
      if (!ticker.startsWith(q)) break;
      buckets[ticker === q ? 0 : 1]!.push(id);
    }
  }

  private nameMatches(slice: Slice, q: string, limit: number, buckets: number[][]): void {
    const wordStart = ` ${q}`;
    const order = slice.byName;
    for (let i = 0; i < order.length; i += 1) {
      const id = order[i]!;
      const name = this.names[id]!;
      const at = name.indexOf(q);
      if (at < 0) continue;
      const rank = at === 1 ? 2 : name.includes(wordStart) ? 3 : 4;
      const bucket = buckets[rank]!;
      if (bucket.length < limit) bucket.push(id);
      if (rank === 2 && bucket.length >= limit) return;
    }
  }

  private slice(ids: number[]): Slice {
    const byTicker = Int32Array.from(ids).sort((a, b) => compare(this.tickers[a]!, this.tickers[b]!));
    const byName = Int32Array.from(ids).sort((a, b) => compare(this.names[a]!, this.names[b]!));
    return { byTicker, byName };
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
