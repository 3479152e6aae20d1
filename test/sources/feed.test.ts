import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FeedValidationError } from '../../sources/feed/feed-validation.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { copyToParquetSql } from '../../warehouse/lake-sql.ts';
import { readSql, runSql, sql } from '../../warehouse/sql.ts';

const fixtures = path.resolve('test/fixtures/feed');

async function lakeFiles(dataDir: string): Promise<string[]> {
  const entries = await readdir(lakeRoot(dataDir), { recursive: true }).catch(() => [] as string[]);
  return entries.filter((e) => e.endsWith('.parquet') && !e.includes('_none')).sort();
}

describe('feed source', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('when a delivery follows the contract, then every table is published under the delivery name and marked not synthetic', async () => {
    const summary = await ingestSource({ dataDir: temp.dir, source: 'feed', path: path.join(fixtures, 'good') });
    expect(summary.rows).toEqual({ listings: 4, fundamentals: 4, prices: 5, exposures: 2, fund_holdings: 2, splits: 0 });
    expect(summary.synthetic).toBe(false);
    expect(await lakeFiles(temp.dir)).toContain(path.join('listings', 'market=us', 'feed-good.parquet'));
    const rows = await withDuckDB(':memory:', {}, async (c) =>
      (
        await readSql(c, sql`SELECT data_source, synthetic, sic FROM read_parquet(${`${lakeRoot(temp.dir)}/listings/market=my/*.parquet`})`)
      ).getRowObjectsJS(),
    );
    expect(rows).toEqual([{ data_source: 'feed', synthetic: false, sic: null }]);
  });

  it('when a delivery has bad rows, then each error names file, line and reason and nothing is published', async () => {
    const error = await ingestSource({ dataDir: temp.dir, source: 'feed', path: path.join(fixtures, 'bad') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedValidationError);
    const errors = (error as FeedValidationError).errors.map((e) => `${e.file}:${e.line}: ${e.reason}`);
    expect(errors).toEqual(
      expect.arrayContaining([
        "listings.csv:3: 'market' must be a market key (docs/data/markets.md), got 'xx'",
        "listings.csv:4: 'kind' must be 'stock' or 'fund', got 'bond'",
        'listings.csv:4: duplicate listing us/QZXA (first on line 2)',
        "exposures.csv:2: 'as_of' must be a date YYYY-MM-DD, got '2026-13-01'",
        "exposures.csv:3: 'revenue_share' must be a number in 0..1, got '1.5'",
        'prices.csv:1: missing required column(s) close of prices',
        'fund_holdings.csv:2: weights of fund us/QZXF on 2026-09-30 sum to 1.15, more than 1',
      ]),
    );
    expect(await lakeFiles(temp.dir)).toEqual([]);
  });

  it('when the delivery is Parquet, then it loads like CSV, and a bad row is reported by its row number', async () => {
    const folder = path.join(temp.dir, 'parquet-delivery');
    await mkdir(folder);
    await withDuckDB(':memory:', {}, async (c) => {
      const prices = sql`SELECT * FROM read_csv(${`${fixtures}/good/prices.csv`}, all_varchar = true)`;
      await runSql(c, copyToParquetSql(prices, `${folder}/prices.parquet`));
    });
    expect((await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder })).rows.prices).toBe(5);
    await withDuckDB(':memory:', {}, async (c) => {
      const prices = sql`SELECT market, ticker, date, CASE WHEN close = '21.0' THEN '-1' ELSE close END AS close, currency
        FROM read_csv(${`${fixtures}/good/prices.csv`}, all_varchar = true)`;
      await runSql(c, copyToParquetSql(prices, `${folder}/prices.parquet`));
    });
    await expect(ingestSource({ dataDir: temp.dir, source: 'feed', path: folder })).rejects.toThrow(
      /prices.parquet:2: 'close' must be a number >= 0, got '-1'/,
    );
  });

  it('when the folder has no feed files, then the load is rejected with what was expected', async () => {
    await expect(ingestSource({ dataDir: temp.dir, source: 'feed', path: temp.dir })).rejects.toThrow(
      /no feed files: expected listings.csv\|parquet/,
    );
  });
});
