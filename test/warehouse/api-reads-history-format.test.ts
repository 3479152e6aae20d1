import { describe, expect, it } from 'vitest';
import { TickerTable, encodeTickerTable, type SegmentDirectory } from '../../warehouse/api-reads/api-reads-history-format.ts';

/**
 * The history index's ticker table (docs/serving.md, "as_of from the history index"): each ticker's
 * first row and row count, searched as stored bytes.
 */

const bytes = (ticker: string) => Buffer.from(ticker, 'utf8');

/** Markets as a writer hands them over: tickers in any order, each with its first row and row count. */
const MARKETS: SegmentDirectory['markets'] = [
  ['us', ['MSFT', 'A', 'AA', 'AAPL', 'BRK.B', 'Z'], [10, 0, 1, 3, 20, 40], [5, 1, 2, 7, 3, 1]],
  ['de', ['SAP', 'BMW', 'ÄÖÜ', 'AA'], [100, 110, 120, 130], [4, 4, 4, 4]],
  ['jp', ['7203', '6758'], [200, 210], [9, 8]],
];

describe('the history index ticker table', () => {
  it('when a ticker is looked up, then its own market gives its first row and count, and no other market or near name does', () => {
    const { table, counts } = encodeTickerTable(MARKETS);
    const tickers = new TickerTable(table, counts);
    for (const [market, list, firsts, rowCounts] of MARKETS) {
      list.forEach((ticker, i) => expect(tickers.find(market, bytes(ticker))).toEqual([firsts[i], rowCounts[i]]));
    }
    // A prefix, an extension, another market's ticker, an unknown market, and the empty ticker are not there.
    for (const [market, ticker] of [
      ['us', 'AAP'],
      ['us', 'AAPLX'],
      ['us', 'SAP'],
      ['de', 'AAPL'],
      ['fr', 'AA'],
      ['us', ''],
      ['de', 'ÄÖ'],
    ] as const) {
      expect(tickers.find(market, bytes(ticker))).toBeNull();
    }
  });

  it('when the table is listed, then it gives every ticker once with its row range, markets in order and tickers by their bytes', () => {
    const { table, counts } = encodeTickerTable(MARKETS);
    const listed = [...new TickerTable(table, counts).entries()];
    expect(counts).toEqual([
      ['de', 4],
      ['jp', 2],
      ['us', 6],
    ]);
    const expected = MARKETS.flatMap(([market, list, firsts, rowCounts]) =>
      list.map((ticker, i) => [market, ticker, firsts[i], rowCounts[i]]),
    );
    expect(listed).toHaveLength(expected.length);
    expect(new Set(listed.map((entry) => JSON.stringify(entry)))).toEqual(new Set(expected.map((entry) => JSON.stringify(entry))));
    expect(listed.filter(([market]) => market === 'de').map(([, ticker]) => ticker)).toEqual(['AA', 'BMW', 'SAP', 'ÄÖÜ']);
  });

  it('when a segment has no tickers, then every look-up finds nothing', () => {
    const { table, counts } = encodeTickerTable([]);
    expect(table.length).toBe(0);
    expect(new TickerTable(table, counts).find('us', bytes('AAPL'))).toBeNull();
  });

  it('when a table does not match its directory (torn or cut short), then it is refused, never searched', () => {
    const { table, counts } = encodeTickerTable(MARKETS);
    expect(() => new TickerTable(table.subarray(0, table.length - 1), counts)).toThrow(/does not match/);
    expect(() => new TickerTable(table, [...counts, ['fr', 3]])).toThrow(/does not match/);
  });
});
