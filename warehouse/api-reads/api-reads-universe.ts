import type { Listing } from './api-reads-types.ts';

/** Letters that carry no combining mark to strip (Turkish ı, Nordic ø, Polish ł, German ß, …). */
const PLAIN_LETTERS: Record<string, string> = { ı: 'i', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ß: 'ss', æ: 'ae', œ: 'oe' };

/** Lower case without accents: `Nestlé` → `nestle`, `Özkan Gıda` → `ozkan gida`. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ıøłđðþßæœ]/g, (letter) => PLAIN_LETTERS[letter]!);
}

/** Match ranks, best first: exact ticker, ticker prefix, name prefix, a name word's prefix, inside a word of the name. */
const RANKS = 5;

interface Slice {
  /** The market of the slice's listings, or null for every market. */
  market: string | null;
  /** Listing ids sorted by folded ticker (prefix search by binary search). */
  byTicker: Int32Array;
  /** Every word of every folded name, sorted, with its listing id (word-prefix search by binary search). */
  words: string[];
  wordIds: Int32Array;
  /** Listing ids sorted by folded name. */
  byName: Int32Array;
}

/** The three UTF-16 units of `text` at `i` as one number (exact in a double): no substring to allocate. */
function trigramAt(text: string, i: number): number {
  return text.charCodeAt(i) * 2 ** 32 + text.charCodeAt(i + 1) * 2 ** 16 + text.charCodeAt(i + 2);
}

function lowerBound(values: ArrayLike<string>, order: ArrayLike<number> | null, q: string): number {
  let lo = 0;
  let hi = order ? order.length : values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[order ? order[mid]! : mid]! < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The ticker universe in memory with a search index: ticker prefix by binary search and a
 * word-prefix index of folded names, both by binary search; matches inside a word (a query of 3+
 * characters that found too few word matches) from three-character sequences' posting lists.
 * Immutable; rebuilt on change.
 */
export class UniverseIndex {
  private readonly byKey = new Map<string, number>();
  private readonly tickers: string[];
  private readonly names: string[];
  private readonly all: Slice;
  private readonly perMarket = new Map<string, Slice>();
  /**
   * For each three-character sequence, the listings whose folded name holds it, in name order
   * (`all.byName`): a name holding the query holds each of its sequences, so the matches inside
   * a word are found among the shortest such list, in the order a scan of every name finds them.
   */
  private readonly grams = new Map<number, Int32Array>();
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
    this.all = this.slice(ids, null);
    for (const [market, list] of marketIds) {
      this.perMarket.set(market, this.slice(list, market));
      this.counts.set(market, list.length);
    }
    this.indexTrigrams();
  }

  /** Fills `grams` in two passes over the names (count, then place), each name's sequence once. */
  private indexTrigrams(): void {
    const counts = new Map<number, { count: number; last: number; list: Int32Array | null }>();
    for (const pass of [0, 1]) {
      for (const id of this.all.byName) {
        const name = this.names[id]!;
        for (let i = 0; i + 3 <= name.length; i += 1) {
          const gram = trigramAt(name, i);
          let entry = counts.get(gram);
          if (!entry) counts.set(gram, (entry = { count: 0, last: -1, list: null }));
          if (entry.last === id) continue;
          entry.last = id;
          if (pass === 0) entry.count += 1;
          else entry.list![entry.count++] = id;
        }
      }
      for (const entry of counts.values()) {
        entry.last = -1;
        if (pass === 0) [entry.list, entry.count] = [new Int32Array(entry.count), 0];
      }
    }
    for (const [gram, entry] of counts) this.grams.set(gram, entry.list!);
  }

  get size(): number {
    return this.listings.length;
  }

  get(market: string, ticker: string): Listing | undefined {
    const id = this.byKey.get(`${market}/${ticker}`);
    return id === undefined ? undefined : this.listings[id];
  }

  /** Every listing, or a market's, in (market, ticker) order. */
  listingsOf(market: string | null): readonly Listing[] {
    return market === null ? this.listings : this.listings.filter((l) => l.market === market);
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
    const lo = lowerBound(this.tickers, order, q);
    for (let i = lo; i < order.length && buckets[1]!.length < limit; i += 1) {
      const id = order[i]!;
      const ticker = this.tickers[id]!;
      if (!ticker.startsWith(q)) break;
      buckets[ticker === q ? 0 : 1]!.push(id);
    }
  }

  /** Names with a word starting with the query's first word (by binary search), then, if still short, a scan for matches inside words. */
  private nameMatches(slice: Slice, q: string, limit: number, buckets: number[][]): void {
    const first = q.split(' ')[0]!;
    const seen = new Set<number>();
    for (let i = lowerBound(slice.words, null, first); i < slice.words.length && slice.words[i]!.startsWith(first); i += 1) {
      const id = slice.wordIds[i]!;
      if (seen.has(id)) continue;
      seen.add(id);
      const name = this.names[id]!;
      const rank = name.startsWith(` ${q}`) ? 2 : name.includes(` ${q}`) ? 3 : -1;
      if (rank > 0 && buckets[rank]!.length < limit) buckets[rank]!.push(id);
      if (buckets[2]!.length >= limit) return;
    }
    if (buckets[1]!.length + buckets[2]!.length + buckets[3]!.length >= limit || q.length < 3) return;
    for (const id of this.namesHolding(q)) {
      if (slice.market !== null && this.listings[id]!.market !== slice.market) continue;
      if (!seen.has(id) && this.names[id]!.includes(q) && buckets[4]!.push(id) >= limit) return;
    }
  }

  /** Listings, in name order, whose name may hold `q` (3+ characters): the shortest list of one of its sequences. */
  private namesHolding(q: string): Int32Array {
    let shortest: Int32Array | undefined;
    for (let i = 0; i + 3 <= q.length; i += 1) {
      const list = this.grams.get(trigramAt(q, i));
      if (!list) return new Int32Array(0);
      if (!shortest || list.length < shortest.length) shortest = list;
    }
    return shortest ?? new Int32Array(0);
  }

  private slice(ids: number[], market: string | null): Slice {
    const byTicker = Int32Array.from(ids).sort((a, b) => compare(this.tickers[a]!, this.tickers[b]!));
    const byName = Int32Array.from(ids).sort((a, b) => compare(this.names[a]!, this.names[b]!));
    const pairs: Array<[string, number]> = [];
    for (const id of byName) for (const word of new Set(this.names[id]!.split(/[^\p{L}\p{N}]+/u))) if (word) pairs.push([word, id]);
    pairs.sort((a, b) => compare(a[0], b[0]));
    return { market, byTicker, byName, words: pairs.map((p) => p[0]), wordIds: Int32Array.from(pairs, (p) => p[1]) };
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
