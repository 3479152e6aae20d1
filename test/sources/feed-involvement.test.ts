import { cp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screenCompany } from '../../engine/index.ts';
import { FeedValidationError } from '../../sources/feed/feed-validation.ts';
import { migrateCatalog } from '../../warehouse/catalog.ts';
import { INVOLVEMENT_SEED_FILE } from '../../warehouse/migrations/005-involvement-columns.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { catalogPath, lakeRoot } from '../../warehouse/lake-paths.ts';
import { loadScreeningInputs } from '../../warehouse/screening-inputs.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { copyToParquetSql } from '../../warehouse/lake-sql.ts';
import { rawSql, runSql, sql } from '../../warehouse/sql.ts';

const GOOD = path.resolve('test/fixtures/feed/good');

/** The good fixture delivery with its exposures (and optionally listings) replaced. */
async function deliveryWith(dir: string, name: string, exposures: string, listings?: string): Promise<string> {
  const folder = path.join(dir, name);
  await cp(GOOD, folder, { recursive: true });
  await writeFile(path.join(folder, 'exposures.csv'), exposures);
  if (listings !== undefined) await writeFile(path.join(folder, 'listings.csv'), listings);
  return folder;
}

const inputsOf = (dataDir: string) =>
  withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, dataDir, { date: '2026-10-01', market: 'us', tickers: ['QZXA'] }));

describe('feed contract: involvement of exposures and Jewish control of listings', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('when exposures carry involvement, then it reaches the engine and a producer at 2% fails MSCI while a retailer passes', async () => {
    const folder = await deliveryWith(
      temp.dir,
      'involved',
      [
        'market,ticker,as_of,activity,revenue_share,source_ref,evidence,involvement',
        'us,QZXA,2026-03-31,alcohol,0.02,vendor:QZXA:seg-2025,,producer',
        'us,QZXA,2026-03-31,pork,0.021,vendor:QZXA:seg-2025,,retailer',
      ].join('\n') + '\n',
      [
        'market,ticker,name,exchange_mic,kind,currency,sic,heter_iska,operates_on_shabbat,jewish_controlled',
        'us,QZXA,Fictional Quorvane Foods Inc.,XNAS,stock,USD,2000,,,false',
        'us,QZXB,Fictional Telmaro Systems Inc.,XNYS,stock,USD,7372,false,,',
      ].join('\n') + '\n',
    );

    await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });
    const [input] = await inputsOf(temp.dir);

    expect(input!.exposures.map((e) => [e.activity, e.involvement])).toEqual([
      ['alcohol', 'producer'],
      ['pork', 'retailer'],
    ]);
    expect(input!.listing.jewishControlled).toBe(false);
    const msci = screenCompany(input!).frameworks.shariah_msci!;
    expect(msci.reasons.find((r) => r.code === 'shariah_msci.business.alcohol')).toMatchObject({ result: 'fail', value: 0.02 });
    expect(msci.reasons.find((r) => r.code === 'shariah_msci.business.pork')).toMatchObject({ result: 'pass' });
    expect(msci.status).toBe('non_compliant');
  });

  it('when a delivery has no involvement column, then exposures load with involvement unknown and MSCI takes the conservative default', async () => {
    const folder = await deliveryWith(temp.dir, 'plain', await readFile(path.join(GOOD, 'exposures.csv'), 'utf8'));

    await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });
    const [input] = await inputsOf(temp.dir);

    expect(input!.exposures.map((e) => [e.activity, e.involvement])).toEqual([
      ['alcohol', null],
      ['pork', null],
    ]);
    expect(input!.listing.jewishControlled).toBeNull();
    const alcohol = screenCompany(input!).frameworks.shariah_msci!.reasons.find((r) => r.code === 'shariah_msci.business.alcohol');
    expect(alcohol).toMatchObject({ result: 'questionable' });
    expect(alcohol!.message).toMatch(/involvement is not reported.*conservative default/);
  });

  it('when a lake was written before the involvement column, then after migration 5 its exposures read with involvement null', async () => {
    const folder = await deliveryWith(temp.dir, 'old', await readFile(path.join(GOOD, 'exposures.csv'), 'utf8'));
    await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });
    // Put the lake back as release 4 left it: every file (seeds too) without the new columns, catalog at version 4.
    await withDuckDB(':memory:', {}, async (c) => {
      for (const [table, column] of [
        ['exposures', 'involvement'],
        ['listings', 'jewish_controlled'],
      ] as const) {
        const dir = path.join(lakeRoot(temp.dir), table);
        for (const entry of await readdir(dir, { recursive: true })) {
          const file = path.join(dir, entry);
          if (!file.endsWith('.parquet')) continue;
          if (entry.endsWith(INVOLVEMENT_SEED_FILE)) {
            await rm(file);
            continue;
          }
          const without = sql`SELECT * EXCLUDE (${rawSql(column)}) FROM read_parquet(${file}, hive_partitioning = false)`;
          await runSql(c, copyToParquetSql(without, `${file}.tmp`));
          await rename(`${file}.tmp`, file);
        }
      }
    });
    await withDuckDB(catalogPath(temp.dir), {}, (c) => c.run('DELETE FROM schema_migrations WHERE version >= 5'));
    await expect(inputsOf(temp.dir)).rejects.toThrow(/involvement|jewish_controlled/);

    await migrateCatalog(temp.dir);
    const [input] = await inputsOf(temp.dir);

    expect(input!.exposures.map((e) => e.involvement)).toEqual([null, null]);
    expect(input!.listing.jewishControlled).toBeNull();
  });

  it('when involvement is not one of the four values, then the row is rejected naming the valid ones', async () => {
    const folder = await deliveryWith(
      temp.dir,
      'bad',
      ['market,ticker,as_of,activity,revenue_share,source_ref,involvement', 'us,QZXA,2026-03-31,alcohol,0.02,vendor:QZXA,maker'].join(
        '\n',
      ) + '\n',
    );

    const error = await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(FeedValidationError);
    expect((error as FeedValidationError).errors.map((e) => `${e.file}:${e.line}: ${e.reason}`)).toEqual([
      "exposures.csv:2: 'involvement' must be one of producer, distributor, retailer, ancillary (docs/data/activities.md), got 'maker'",
    ]);
  });
});
