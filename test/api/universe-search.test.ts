import { describe, expect, it } from 'vitest';
import { UniverseIndex, foldText } from '../../warehouse/api-reads/api-reads-universe.ts';
import type { Listing } from '../../warehouse/api-reads/api-reads-types.ts';

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
