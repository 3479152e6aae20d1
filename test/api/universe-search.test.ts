import { describe, expect, it } from 'vitest';
import { UniverseIndex, foldText } from '../../reads/api-reads-universe.ts';
import type { Listing } from '../../reads/api-reads-types.ts';

const listing = (market: string, ticker: string, name: string): Listing => ({
  market,
  ticker,
  name,
  exchange: 'XTST',
  kind: 'stock',
  currency: 'USD',
});

const index = new UniverseIndex([
  listing('ch', 'NESN', 'Nestlé S.A.'),
  listing('tr', 'OZK', 'Özkan Gıda Sanayi'),
  listing('us', 'NES', 'Nessel Holdings Inc.'),
  listing('us', 'NESX', 'Alpha Nestor Labs'),
  listing('us', 'AAPL', 'Apple Inc.'),
  listing('de', 'SAP', 'SAP SE'),
  listing('us', 'ZZZ', 'Grandnestle Works'),
]);

describe('universe search', () => {
  it('folds case and accents', () => {
    expect(foldText('Nestlé ÖZKAN')).toBe('nestle ozkan');
  });

  it('when the query is an exact ticker, then it comes first, then ticker prefixes, then name matches', () => {
    expect(index.search('nes', null, 10).map((l) => l.ticker)).toEqual(['NES', 'NESN', 'NESX', 'ZZZ']);
  });

  it('when the query has no accents, then accented names still match', () => {
    expect(index.search('nestle', null, 5).map((l) => l.ticker)).toEqual(['NESN', 'ZZZ']);
    expect(index.search('ozkan gida', null, 5).map((l) => l.ticker)).toEqual(['OZK']);
  });

  it('when a market is given, then only its listings are returned, up to the limit', () => {
    expect(index.search('n', 'us', 2).map((l) => l.ticker)).toEqual(['NES', 'NESX']);
    expect(index.search('sap', 'us', 5)).toEqual([]);
    expect(index.search('s', 'ch', 5).map((l) => l.ticker)).toEqual(['NESN']);
  });
});

describe('universe search inside words, over a few thousand names', () => {
  // Deterministic names from syllables, over three markets, some repeated, some accented.
  const syllables = ['ka', 'lo', 'mé', 'ri', 'tu', 'xa', 'bo', 'ne', 'sy', 'qu', 'ød', 'ir'];
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
  const word = () => Array.from({ length: 2 + next(3) }, () => syllables[next(syllables.length)]).join('');
  const markets = ['us', 'gb', 'de'];
  const listings = Array.from({ length: 3_000 }, (_, i) =>
    listing(markets[i % 3]!, `T${String(i).padStart(5, '0')}`, i % 50 === 0 ? 'Kalome Ritu Holdings' : `${word()} ${word()} Corp`),
  );
  const big = new UniverseIndex(listings);
  const folded = listings.map((l) => ` ${foldText(l.name)}`);
  /** What a scan of every name in name order finds: the matches inside a word, as the search ranks them last. */
  const scanned = (q: string, market: string | null, limit: number) =>
    listings
      .map((l, id) => ({ l, id }))
      .filter(({ l, id }) => (market === null || l.market === market) && folded[id]!.includes(q))
      .sort((a, b) => (folded[a.id]! < folded[b.id]! ? -1 : folded[a.id]! > folded[b.id]! ? 1 : a.id - b.id))
      .slice(0, limit)
      .map(({ l }) => l.ticker);

  it('when a query of 3+ characters matches only inside words, then the results are every name holding it, in name order, up to the limit', () => {
    // Pieces from inside the names' words (and two that hold no name), each a query.
    const queries = [...new Set(folded.slice(0, 60).map((name) => name.slice(2, 5))), 'xyz', 'urik'];
    let compared = 0;
    let found = 0;
    for (const q of queries) {
      // Only queries no word and no ticker starts with: their results are all inside-word matches.
      if (folded.some((name) => name.includes(` ${q}`))) continue;
      for (const market of [null, 'us', 'gb']) {
        for (const limit of [1, 5, 50]) {
          const expected = scanned(q, market, limit);
          expect(big.search(q, market, limit).map((l) => l.ticker)).toEqual(expected);
          compared += 1;
          if (expected.length > 1) found += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(50);
    expect(found).toBeGreaterThan(20);
  });
});
