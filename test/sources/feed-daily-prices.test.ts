import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FeedValidationError } from '../../sources/feed/feed-validation.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { readSql, sql } from '../../warehouse/sql.ts';

const YAHOO_HEADER = 'Date,Open,High,Low,Close,Adj Close,Volume';

interface MonthEnd {
  date: string;
  close: string;
  adjClose: string;
  volume: string;
}

/** Real month-end closes of one ticker from test/fixtures/realdata/month_end_close.csv.gz (Yahoo-style: split-adjusted through 2024-03-08). */
async function realMonthEnds(ticker: string, from: string, through: string): Promise<MonthEnd[]> {
  const text = gunzipSync(await readFile(path.resolve('test/fixtures/realdata/month_end_close.csv.gz'))).toString('utf8');
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .filter(([t, , date]) => t === ticker && date! >= from && date! <= through)
    .map(([, , date, close, adjClose, volume]) => ({ date: date!, close: close!, adjClose: adjClose!, volume: volume! }));
}

/**
 * A Yahoo-format daily file from real month-end closes. The source has no open, high or low, so
 * those columns are left empty (the feed reads only Date and Close); `extra` lines are appended.
 */
function yahooCsv(rows: readonly MonthEnd[], extra: readonly string[] = []): string {
  return [YAHOO_HEADER, ...rows.map((r) => `${r.date},,,,${r.close},${r.adjClose},${r.volume}`), ...extra].join('\n') + '\n';
}

async function writeDelivery(folder: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), text);
  }
}

interface PriceRow {
  ticker: string;
  date: string;
  close: number;
  currency: string;
  split_adjusted_through: string | null;
  data_source: string;
  synthetic: boolean;
}

async function publishedPrices(dataDir: string, market: string): Promise<PriceRow[]> {
  return withDuckDB(':memory:', {}, async (c) => {
    const files = `${lakeRoot(dataDir)}/prices/market=${market}/feed-*.parquet`;
    const read = await readSql(
      c,
      sql`SELECT ticker, strftime(date, '%Y-%m-%d') AS date, close, currency,
        strftime(split_adjusted_through, '%Y-%m-%d') AS split_adjusted_through,
        data_source, synthetic FROM read_parquet(${files}) ORDER BY ticker, date`,
    );
    return read.getRowObjectsJS() as unknown as PriceRow[];
  });
}

async function rejection(dataDir: string, folder: string): Promise<string[]> {
  const error = await ingestSource({ dataDir, source: 'feed', path: folder }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FeedValidationError);
  return (error as FeedValidationError).errors.map((e) => `${e.file}:${e.line}: ${e.reason}`);
}

describe('feed contract: Yahoo-style daily price files', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it("when a delivery has daily files of real tickers, then every close is published in the market's currency, adjusted through the file's last date, and 'null' days are skipped", async () => {
    const folder = path.join(temp.dir, 'yahoo-2024-03-08');
    const [aapl, nvda, cost] = await Promise.all(['AAPL', 'NVDA', 'COST'].map((t) => realMonthEnds(t, '2019-01-01', '2024-03-08')));
    await writeDelivery(folder, {
      'prices-daily/us/AAPL.csv': yahooCsv(aapl!, ['2020-07-01,null,null,null,null,null,null']),
      'prices-daily/us/NVDA.csv': yahooCsv(nvda!),
      'prices-daily/us/COST.csv': yahooCsv(cost!),
    });

    const summary = await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });

    expect(aapl).toHaveLength(63);
    expect(summary.rows.prices).toBe(63 * 3);
    const rows = await publishedPrices(temp.dir, 'us');
    const at = (ticker: string, date: string): PriceRow | undefined => rows.find((r) => r.ticker === ticker && r.date === date);
    expect(at('AAPL', '2020-06-30')).toEqual({
      ticker: 'AAPL',
      date: '2020-06-30',
      close: 91.199997,
      currency: 'USD',
      split_adjusted_through: '2024-03-08',
      data_source: 'feed',
      synthetic: false,
    });
    // Close, not the dividend-adjusted Adj Close (89.188103 that day).
    expect(at('NVDA', '2021-06-30')?.close).toBe(200.024994);
    expect(at('AAPL', '2020-07-01')).toBeUndefined();
    expect(new Set(rows.map((r) => r.split_adjusted_through))).toEqual(new Set(['2024-03-08']));
  });

  it('when overrides.csv sets a split basis for the market and a ticker, a currency, then those win over the defaults', async () => {
    const folder = path.join(temp.dir, 'overrides');
    // Downloaded on 2024-03-08 (adjusted through that day) but cut at 2024-02-29 by the user.
    const aapl = await realMonthEnds('AAPL', '2021-06-01', '2024-02-29');
    // NVDA's as-traded closes: Yahoo's closes before its 4-for-1 split of 2021-07-20, times 4.
    const nvda = (await realMonthEnds('NVDA', '2021-05-01', '2021-08-31')).map((r) =>
      r.date < '2021-07-20' ? { ...r, close: String(Number(r.close) * 4) } : r,
    );
    await writeDelivery(folder, {
      'prices-daily/us/AAPL.csv': yahooCsv(aapl),
      'prices-daily/us/NVDA.csv': yahooCsv(nvda),
      // A fictional London listing quoted in US dollars; the market's own currency is GBP.
      'prices-daily/gb/QZXG.csv': `${YAHOO_HEADER}\n2024-02-29,,,,12.5,12.5,1000\n`,
      'prices-daily/de/QZXD.csv': `${YAHOO_HEADER}\n2024-02-29,,,,8.25,8.25,1000\n`,
      'prices-daily/overrides.csv': 'market,ticker,currency,split_adjusted_through\nus,,,2024-03-08\nus,NVDA,,as_traded\ngb,QZXG,USD,\n',
    });

    await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });

    const us = await publishedPrices(temp.dir, 'us');
    expect(new Set(us.filter((r) => r.ticker === 'AAPL').map((r) => r.split_adjusted_through))).toEqual(new Set(['2024-03-08']));
    expect(us.find((r) => r.ticker === 'NVDA' && r.date === '2021-06-30')).toMatchObject({
      close: 800.099976,
      split_adjusted_through: null,
    });
    expect((await publishedPrices(temp.dir, 'gb'))[0]).toMatchObject({
      ticker: 'QZXG',
      currency: 'USD',
      split_adjusted_through: '2024-02-29',
    });
    expect((await publishedPrices(temp.dir, 'de'))[0]).toMatchObject({ ticker: 'QZXD', currency: 'EUR', close: 8.25 });
  });

  it('when daily files break the layout or their rows are bad, then each error names the file, the line and what is valid, and nothing is published', async () => {
    const folder = path.join(temp.dir, 'bad-daily');
    await writeDelivery(folder, {
      'prices-daily/AAPL.csv': `${YAHOO_HEADER}\n`,
      'prices-daily/xx/AAPL.csv': `${YAHOO_HEADER}\n`,
      'prices-daily/us/aapl.csv': `${YAHOO_HEADER}\n`,
      'prices-daily/us/NVDA.csv': 'Date,Open,High,Low,Adj Close,Volume\n2024-02-29,1,1,1,1,1\n',
      'prices-daily/us/AAPL.csv': [
        YAHOO_HEADER,
        '2024-02-28,,,,181.42,181.42,1',
        '2024-02-30,,,,180.75,180.75,1',
        '2024-03-01,,,,abc,1,1',
        '2024-03-04,,,,,1,1',
        '2024-02-28,,,,181.42,181.42,1',
      ].join('\n'),
      'prices-daily/us/COST.csv': `${YAHOO_HEADER}\n2024-02-29,null,null,null,null,null,null\n`,
      'prices-daily/us/QZXR.csv': `${YAHOO_HEADER}\n2024-02-29,1,1,1,1,1,1,1\n`,
      'prices-daily/overrides.csv': 'market,ticker,split_adjusted_through\nus,MSFT,\nus,AAPL,2024-01-01\nus,AAPL,\nus,,yesterday\n',
      'prices.csv': 'market,ticker,date,close,currency\nus,AAPL,2024-02-29,180.75,USD\n',
    });

    const errors = await rejection(temp.dir, folder);

    expect(errors).toEqual(
      expect.arrayContaining([
        'prices-daily/AAPL.csv:0: not a prices-daily file: files go in prices-daily/<market>/<TICKER>.csv (or overrides.csv)',
        expect.stringMatching(
          /^prices-daily\/xx:0: 'xx' is not a market key \(docs\/data\/markets.md\): files go in prices-daily\/<market>\/<TICKER>.csv, market one of us, ca, /,
        ),
        'prices-daily/us/aapl.csv:0: the file name must be the listed ticker in capitals plus .csv, e.g. AAPL.csv or BRK-B.csv: ' +
          'files go in prices-daily/<market>/<TICKER>.csv',
        'prices-daily/us/NVDA.csv:1: missing column(s) Close of a daily price file: expected the header Date,Open,High,Low,Close,Adj ' +
          'Close,Volume (only Date and Close are read), got Date,Open,High,Low,Adj Close,Volume',
        "prices-daily/us/AAPL.csv:3: 'Date' must be a date YYYY-MM-DD, got '2024-02-30'",
        "prices-daily/us/AAPL.csv:4: 'Close' must be a number >= 0 or 'null', got 'abc'",
        "prices-daily/us/AAPL.csv:5: 'Close' is required (Yahoo's 'null' marks a day without prices; such rows are skipped)",
        'prices-daily/us/AAPL.csv:6: duplicate date 2024-02-28 (first on line 2)',
        'prices-daily/us/COST.csv:0: no row with a Close: the file has no prices',
        'prices-daily/us/QZXR.csv:2: unreadable daily price file: 8 values where the header has 7 columns',
        'prices-daily/overrides.csv:2: no daily price file prices-daily/us/MSFT.csv for this override',
        'prices-daily/overrides.csv:3: split_adjusted_through 2024-01-01 is before the last date 2024-03-04 of prices-daily/us/AAPL.csv: ' +
          'a file is adjusted through the day it was downloaded',
        'prices-daily/overrides.csv:4: duplicate override for us/AAPL (first on line 3)',
        "prices-daily/overrides.csv:5: 'split_adjusted_through' must be a date YYYY-MM-DD or 'as_traded', got 'yesterday'",
        "prices-daily/us/AAPL.csv:0: us/AAPL also has rows in prices.csv: give each ticker's prices in one place (their split bases may differ)",
      ]),
    );
    expect(errors).toHaveLength(15);
    await expect(readFile(path.join(lakeRoot(temp.dir), 'prices', 'market=us', 'feed-bad-daily.parquet'))).rejects.toThrow(/ENOENT/);
  });

  it('when the prices-daily folder holds no files, then the load is rejected saying where they go', async () => {
    const folder = path.join(temp.dir, 'empty-daily');
    await mkdir(path.join(folder, 'prices-daily'), { recursive: true });
    expect(await rejection(temp.dir, folder)).toEqual([
      'prices-daily:0: no daily price files: expected prices-daily/<market>/<TICKER>.csv',
    ]);
  });
});
