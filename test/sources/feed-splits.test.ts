import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FeedValidationError } from '../../sources/feed/feed-validation.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { makeTempDir } from '../support/temp-dir.ts';

async function writeDelivery(folder: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), text);
  }
}

async function published(dataDir: string, sql: string): Promise<Record<string, unknown>[]> {
  return withDuckDB(':memory:', {}, async (c) => (await c.runAndReadAll(sql.replaceAll('LAKE', lakeRoot(dataDir)))).getRowObjectsJS());
}

describe('feed contract: splits and the split basis of prices', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it("when a delivery has a splits table with numbers and 'new:old' text, and Yahoo split-event files, then every split is published with its ratio as new shares per old share", async () => {
    const folder = path.join(temp.dir, 'splits-good');
    await writeDelivery(folder, {
      // Apple's 7-for-1 (2014) and 4-for-1 (2020) splits, NVIDIA's 4-for-1 (2021) and 10-for-1 (2024); QZXR is fictional.
      'splits.csv':
        'market,ticker,ex_date,ratio,source_ref\nus,AAPL,2014-06-09,7,8-K 2014\nus,AAPL,2020-08-31,4:1,\nus,QZXR,2023-05-02,1:10,\n',
      'split-events/us/NVDA.csv': 'Date,Stock Splits\n2021-07-20,4:1\n2024-06-10,10.0\n',
    });

    const summary = await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });

    expect(summary.rows.splits).toBe(5);
    const rows = await published(
      temp.dir,
      `SELECT ticker, strftime(ex_date, '%Y-%m-%d') AS ex_date, ratio, source_ref, data_source
      FROM read_parquet('LAKE/splits/market=us/feed-*.parquet') ORDER BY ticker, ex_date`,
    );
    expect(rows).toEqual([
      { ticker: 'AAPL', ex_date: '2014-06-09', ratio: 7, source_ref: '8-K 2014', data_source: 'feed' },
      { ticker: 'AAPL', ex_date: '2020-08-31', ratio: 4, source_ref: 'feed:splits.csv:3', data_source: 'feed' },
      { ticker: 'NVDA', ex_date: '2021-07-20', ratio: 4, source_ref: 'feed:split-events/us/NVDA.csv:2', data_source: 'feed' },
      { ticker: 'NVDA', ex_date: '2024-06-10', ratio: 10, source_ref: 'feed:split-events/us/NVDA.csv:3', data_source: 'feed' },
      { ticker: 'QZXR', ex_date: '2023-05-02', ratio: 0.1, source_ref: 'feed:splits.csv:4', data_source: 'feed' },
    ]);
  });

  it('when splits have a ratio that is not above 0, a bad date or repeat a split, then each is named by file and line and nothing is published', async () => {
    const folder = path.join(temp.dir, 'splits-bad');
    await writeDelivery(folder, {
      'splits.csv': [
        'market,ticker,ex_date,ratio',
        'us,AAPL,2020-08-31,0',
        'us,AAPL,2014-06-09,4:0',
        'us,QZXA,2023-01-03,four',
        'us,QZXB,2023-02-30,2',
        'us,QZXC,2023-03-01,-2',
        'us,NVDA,2021-07-20,4',
        'us,QZXD,2023-04-03,',
      ].join('\n'),
      'split-events/us/NVDA.csv': 'Date,Stock Splits\n2021-07-20,4:1\n',
      'split-events/us/QZXE.csv': 'Date,Ratio\n2023-01-03,2:1\n',
    });

    const error = await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(FeedValidationError);
    const ratioRule = "'ratio' must be new shares per old share above 0, as a number (4, 0.1) or 'new:old' ('4:1', '1:10')";
    expect((error as FeedValidationError).errors.map((e) => `${e.file}:${e.line}: ${e.reason}`)).toEqual([
      `splits.csv:2: ${ratioRule}, got '0'`,
      `splits.csv:3: ${ratioRule}, got '4:0'`,
      `splits.csv:4: ${ratioRule}, got 'four'`,
      "splits.csv:5: 'ex_date' must be a date YYYY-MM-DD, got '2023-02-30'",
      `splits.csv:6: ${ratioRule}, got '-2'`,
      "splits.csv:8: 'ratio' is required",
      'split-events/us/QZXE.csv:1: missing column(s) Stock Splits of a split-event file: expected the header Date,Stock Splits, got Date,Ratio',
      'split-events/us/NVDA.csv:2: duplicate split us/NVDA on 2021-07-20 (first at splits.csv:7)',
    ]);
    expect(await readdir(path.join(lakeRoot(temp.dir), 'splits')).catch(() => [])).not.toContain('market=us');
  });

  it('when the prices table carries split_adjusted_through, then it is published; empty means as traded; a bad date is rejected', async () => {
    const folder = path.join(temp.dir, 'prices-basis');
    await writeDelivery(folder, {
      'prices.csv':
        'market,ticker,date,close,currency,split_adjusted_through\nus,AAPL,2020-06-30,91.199997,USD,2024-03-08\nus,QZXA,2026-09-30,19.75,USD,\n',
    });

    await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });

    const rows = await published(
      temp.dir,
      `SELECT ticker, strftime(split_adjusted_through, '%Y-%m-%d') AS basis FROM read_parquet('LAKE/prices/market=us/feed-*.parquet') ORDER BY ticker`,
    );
    expect(rows).toEqual([
      { ticker: 'AAPL', basis: '2024-03-08' },
      { ticker: 'QZXA', basis: null },
    ]);
    await writeFile(
      path.join(folder, 'prices.csv'),
      'market,ticker,date,close,currency,split_adjusted_through\nus,AAPL,2020-06-30,91.199997,USD,08/03/2024\n',
    );
    await expect(ingestSource({ dataDir: temp.dir, source: 'feed', path: folder })).rejects.toThrow(
      /prices.csv:2: 'split_adjusted_through' must be a date YYYY-MM-DD, got '08\/03\/2024'/,
    );
  });
});
