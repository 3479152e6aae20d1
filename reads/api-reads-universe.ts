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
 * Everything the search index holds, as plain arrays and typed arrays: built anywhere (a worker
 * thread when listings are republished: `api-reads-universe-thread.ts`) and handed to
 * `UniverseIndex` without further work. Structured-clonable; the typed arrays can be transferred.
 */
export interface UniverseParts {
  listings: Listing[];
  /** Folded tickers, by listing id. */
  tickers: string[];
  /** Folded names with a leading space, by listing id. */
  names: string[];
  all: Slice;
  perMarket: Array<[string, Slice]>;
  /**
   * For each three-character sequence (`gramKeys`, sorted), the listings whose folded name holds
   * it, in name order (`all.byName`): `gramIds[gramStarts[i] .. gramStarts[i + 1]]`. A name
   * holding the query holds each of its sequences, so the matches inside a word are found among
   * the shortest such list, in the order a scan of every name finds them.
   */
  gramKeys: Float64Array;
  gramStarts: Int32Array;
  gramIds: Int32Array;
}

/** Listings as one array per field: a thread hands these back far cheaper than one object per listing. */
export interface ListingColumns {
  market: string[];
  ticker: string[];
  name: string[];
  exchange: string[];
  kind: string[];
  currency: string[];
}

export function listingColumns(listings: readonly Listing[]): ListingColumns {
  return {
    market: listings.map((l) => l.market),
    ticker: listings.map((l) => l.ticker),
    name: listings.map((l) => l.name),
    exchange: listings.map((l) => l.exchange),
    kind: listings.map((l) => l.kind),
    currency: listings.map((l) => l.currency),
  };
}

export function listingsOfColumns(columns: ListingColumns): Listing[] {
  const { market, ticker, name, exchange, kind, currency } = columns;
  return market.map((m, i) => ({
    market: m,
    ticker: ticker[i]!,
    name: name[i]!,
    exchange: exchange[i]!,
    kind: kind[i]!,
    currency: currency[i]!,
  }));
}

/** Builds the index's parts from the listings (the CPU work of a universe reload: hundreds of ms at 30k listings). */
export function buildUniverseParts(listings: readonly Listing[]): UniverseParts {
  const tickers = listings.map((l) => foldText(l.ticker));
  const names = listings.map((l) => ` ${foldText(l.name)}`);
  const ids: number[] = [];
  const marketIds = new Map<string, number[]>();
  listings.forEach((listing, id) => {
    ids.push(id);
    let list = marketIds.get(listing.market);
    if (!list) marketIds.set(listing.market, (list = []));
    list.push(id);
  });
  const all = slice(tickers, names, ids, null);
  const perMarket = [...marketIds].map(([market, list]) => [market, slice(tickers, names, list, market)] as [string, Slice]);
  return { listings: [...listings], tickers, names, all, perMarket, ...indexTrigrams(names, all.byName) };
}

/** The posting lists of every name's three-character sequences, in two passes over the names (count, then place). */
function indexTrigrams(names: readonly string[], byName: Int32Array): Pick<UniverseParts, 'gramKeys' | 'gramStarts' | 'gramIds'> {
  const entries = new Map<number, { count: number; last: number; start: number }>();
  const each = (visit: (entry: { count: number; last: number; start: number }, id: number) => void) => {
    for (const id of byName) {
      const name = names[id]!;
      for (let i = 0; i + 3 <= name.length; i += 1) {
        const gram = trigramAt(name, i);
        let entry = entries.get(gram);
        if (!entry) entries.set(gram, (entry = { count: 0, last: -1, start: 0 }));
        if (entry.last === id) continue;
        entry.last = id;
        visit(entry, id);
      }
    }
  };
  each((entry) => (entry.count += 1));
  const gramKeys = Float64Array.from(entries.keys()).sort();
  const gramStarts = new Int32Array(gramKeys.length + 1);
  gramKeys.forEach((gram, i) => {
    const entry = entries.get(gram)!;
    entry.start = gramStarts[i]!;
    entry.last = -1;
    gramStarts[i + 1] = entry.start + entry.count;
  });
  const gramIds = new Int32Array(gramStarts[gramKeys.length]!);
  each((entry, id) => (gramIds[entry.start++] = id));
  return { gramKeys, gramStarts, gramIds };
}

function slice(tickers: readonly string[], names: readonly string[], ids: number[], market: string | null): Slice {
  const byTicker = Int32Array.from(ids).sort((a, b) => compare(tickers[a]!, tickers[b]!));
  const byName = Int32Array.from(ids).sort((a, b) => compare(names[a]!, names[b]!));
  const pairs: Array<[string, number]> = [];
  for (const id of byName) for (const word of new Set(names[id]!.split(/[^\p{L}\p{N}]+/u))) if (word) pairs.push([word, id]);
  pairs.sort((a, b) => compare(a[0], b[0]));
  return { market, byTicker, byName, words: pairs.map((p) => p[0]), wordIds: Int32Array.from(pairs, (p) => p[1]) };
}

/**
 * The ticker universe in memory with a search index: ticker prefix by binary search and a
 * word-prefix index of folded names, both by binary search; matches inside a word (a query of 3+
 * characters that found too few word matches) from three-character sequences' posting lists.
 * Immutable; rebuilt on change (from listings, or from parts built elsewhere).
 */
export class UniverseIndex {
  private readonly byKey = new Map<string, number>();
  private readonly listings: readonly Listing[];
  private readonly tickers: string[];
  private readonly names: string[];
  private readonly all: Slice;
  private readonly perMarket: Map<string, Slice>;
  private readonly gramKeys: Float64Array;
  private readonly gramStarts: Int32Array;
  private readonly gramIds: Int32Array;
  readonly counts = new Map<string, number>();

  constructor(source: readonly Listing[] | UniverseParts) {
    const parts = Array.isArray(source) ? buildUniverseParts(source as readonly Listing[]) : (source as UniverseParts);
    ({ listings: this.listings, tickers: this.tickers, names: this.names, all: this.all } = parts);
    ({ gramKeys: this.gramKeys, gramStarts: this.gramStarts, gramIds: this.gramIds } = parts);
    this.perMarket = new Map(parts.perMarket);
    this.listings.forEach((listing, id) => this.byKey.set(`${listing.market}/${listing.ticker}`, id));
    for (const [market, slice] of this.perMarket) this.counts.set(market, slice.byTicker.length);
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
      const list = this.postings(trigramAt(q, i));
      if (!list) return new Int32Array(0);
      if (!shortest || list.length < shortest.length) shortest = list;
    }
    return shortest ?? new Int32Array(0);
  }

  /** The posting list of one three-character sequence (binary search over the sorted sequences), or null. */
  private postings(gram: number): Int32Array | null {
    let lo = 0;
    let hi = this.gramKeys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.gramKeys[mid]! < gram) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.gramKeys.length || this.gramKeys[lo] !== gram) return null;
    return this.gramIds.subarray(this.gramStarts[lo]!, this.gramStarts[lo + 1]!);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
