/**
 * A lake of held-out real companies (test/fixtures/realdata-heldout/PROVENANCE.md), loaded the
 * same way as the twelve of real-lake.ts: their recorded SEC files through
 * `faithscreen ingest --source edgar`, their Yahoo daily price files as recorded through
 * `faithscreen ingest --source feed`.
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { faithscreen, REALDATA } from './real-lake.ts';

export const HELDOUT = path.join(path.dirname(REALDATA), 'realdata-heldout');

/** The last date in the recorded price files; a Yahoo close is split-adjusted up to it. */
export const HELDOUT_PRICES_END = '2020-12-11';

/**
 * An EDGAR delivery folder: the SEC's real ticker list (the one recorded beside the twelve, which
 * names every held-out ticker) and the held-out `submissions/` and `companyfacts/` files.
 */
export async function writeHeldOutEdgarFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await copyFile(path.join(REALDATA, 'company_tickers_exchange.json.gz'), path.join(folder, 'company_tickers_exchange.json.gz'));
  for (const kind of ['submissions', 'companyfacts']) {
    await mkdir(path.join(folder, kind), { recursive: true });
    for (const name of await readdir(path.join(HELDOUT, kind))) {
      await copyFile(path.join(HELDOUT, kind, name), path.join(folder, kind, name));
    }
  }
}

/** A feed delivery of the recorded Yahoo daily files, one per ticker, unzipped as downloaded. */
export async function writeHeldOutPriceDelivery(folder: string): Promise<void> {
  const dir = path.join(folder, 'prices-daily', 'us');
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(path.join(HELDOUT, 'prices-daily'))) {
    const csv = gunzipSync(await readFile(path.join(HELDOUT, 'prices-daily', name)));
    await writeFile(path.join(dir, name.replace(/\.gz$/, '')), csv);
  }
}

/** Ingests the held-out companies (EDGAR files and daily prices) into `dataDir` through the CLI. */
export async function ingestHeldOutCompanies(dataDir: string): Promise<void> {
  const edgar = path.join(dataDir, 'deliveries', 'heldout-edgar');
  const prices = path.join(dataDir, 'deliveries', 'heldout-prices');
  await writeHeldOutEdgarFolder(edgar);
  await writeHeldOutPriceDelivery(prices);
  await faithscreen(dataDir, ['ingest', '--source', 'edgar', '--path', edgar]);
  await faithscreen(dataDir, ['ingest', '--source', 'feed', '--path', prices]);
}
