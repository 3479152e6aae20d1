import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FeedValidationError } from '../../sources/feed/feed-validation.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { rawSql, readSql, sql } from '../../warehouse/sql.ts';

const FORENSIC = ['ppe_net', 'long_term_investments', 'long_term_debt', 'depreciation', 'sga_expense'];

/** The good fixture delivery with the forensic columns appended to fundamentals.csv (values per data line). */
async function deliveryWith(dir: string, values: string[]): Promise<string> {
  const folder = path.join(dir, 'delivery');
  await cp(path.resolve('test/fixtures/feed/good'), folder, { recursive: true });
  const file = path.join(folder, 'fundamentals.csv');
  const [header, ...lines] = (await readFile(file, 'utf8')).trimEnd().split('\n');
  await writeFile(file, [`${header},${FORENSIC.join(',')}`, ...lines.map((line, i) => `${line},${values[i] ?? ',,,,'}`)].join('\n') + '\n');
  return folder;
}

describe('feed contract: forensic inputs', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('when a delivery carries the forensic columns, then they are published; rows leaving them empty read null', async () => {
    const folder = await deliveryWith(temp.dir, ['300000000,40000000,200000000,30000000,90000000']);
    await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });
    const rows = await withDuckDB(':memory:', {}, async (c) =>
      (
        await readSql(
          c,
          sql`SELECT ${rawSql(FORENSIC.join(', '))} FROM read_parquet(${`${lakeRoot(temp.dir)}/fundamentals/market=us/*.parquet`})
            ORDER BY period_end LIMIT 2`,
        )
      ).getRowObjectsJS(),
    );
    expect(rows).toEqual([
      {
        ppe_net: 300_000_000,
        long_term_investments: 40_000_000,
        long_term_debt: 200_000_000,
        depreciation: 30_000_000,
        sga_expense: 90_000_000,
      },
      { ppe_net: null, long_term_investments: null, long_term_debt: null, depreciation: null, sga_expense: null },
    ]);
  });

  it('when a forensic figure is negative or not a number, then the row is refused naming the column and nothing is published', async () => {
    const folder = await deliveryWith(temp.dir, ['-5,0,0,0,0', '1,1,1,abc,1']);
    const error = await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedValidationError);
    expect((error as FeedValidationError).errors.map((e) => `${e.file}:${e.line}: ${e.reason}`)).toEqual(
      expect.arrayContaining([
        "fundamentals.csv:2: 'ppe_net' must be a number >= 0, got '-5'",
        "fundamentals.csv:3: 'depreciation' must be a number >= 0, got 'abc'",
      ]),
    );
  });
});
