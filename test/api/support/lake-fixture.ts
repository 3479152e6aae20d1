import pino from 'pino';
import type Koa from 'koa';
import { compactResult, snapshotRowFrom } from '../../../activities/snapshot-rows.ts';
import { createApp, type AppDeps } from '../../../api/app.ts';
import type { Middleware } from 'koa';
import { unavailableRefresher, type Refresher } from '../../../api/refresher.ts';
import { screenCompany, type ScreeningInput } from '../../../engine/index.ts';
import { createMetrics } from '../../../api/metrics.ts';
import { openApiReads, type ApiReads } from '../../../reads/api-reads.ts';
import { withDuckDB } from '../../../warehouse/duckdb.ts';
import { ForensicReads } from '../../../warehouse/forensic-reads.ts';
import { PurificationReads } from '../../../warehouse/purification-reads.ts';
import { ingestSource } from '../../../sources/ingest.ts';
import { loadScreeningInputs } from '../../../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../../../warehouse/snapshot-writer.ts';
import type { SnapshotRow } from '../../../warehouse/snapshot-schema.ts';
import { listen } from '../../support/http.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

export const TODAY = new Date().toISOString().slice(0, 10);

/** `YYYY-MM-DD` `days` before today (UTC). */
export function daysAgo(days: number): string {
  return new Date(Date.parse(`${TODAY}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** Tickers of the fixture, by role. */
export interface FixtureTickers {
  fresh: string[];
  stale: string;
  expired: string;
  unscreened: string;
  withHistory: string;
  fund: { market: string; ticker: string };
}

/** The screening inputs of `market`'s stocks on `date` (all, or only `tickers`), loaded as the pipelines load them. */
export async function inputsOn(dataDir: string, market: string, date: string, tickers?: string[]): Promise<ScreeningInput[]> {
  return withDuckDB(':memory:', {}, (c) =>
    loadScreeningInputs(c, dataDir, { market, date, kind: 'stock', ...(tickers ? { tickers } : {}) }),
  );
}

/** Snapshot rows of `inputs` screened now, as a nightly or backfill run writes them. */
export function rowsOf(inputs: ScreeningInput[], source: 'nightly' | 'backfill', runId: string): SnapshotRow[] {
  // Backfill stores the compact result, as the pipelines' chunk work does.
  return inputs.map((input) => {
    const result = screenCompany(input);
    return snapshotRowFrom(input, source === 'backfill' ? compactResult(result) : result, {
      source,
      runId,
      screenedAt: `${input.screeningDate}T02:00:00.000`,
    });
  });
}

/**
 * A real lake in `dataDir`: the synthetic sample universe (us and gb at a tiny scale) and
 * snapshots written with the pipelines' writer: most US stocks fresh today, one 3 days old
 * (inside the stale window), one 30 days old (beyond it), one never screened, one with
 * legacy history (2015, 2020) and a current snapshot.
 */
export async function buildLake(dataDir: string): Promise<FixtureTickers> {
  await ingestSource({ source: 'sample', scale: 0.002, dataDir, asOf: TODAY, markets: ['us', 'gb'], concurrency: 2 });
  const today = await inputsOn(dataDir, 'us', TODAY);
  const tickers = today.map((i) => i.listing.ticker);
  const [stale, expired, unscreened, withHistory] = tickers.slice(-4) as [string, string, string, string];
  const fresh = tickers.slice(0, -4);
  const rows = rowsOf(
    today.filter((i) => fresh.includes(i.listing.ticker)),
    'nightly',
    'nightly-today',
  );
  for (const [ticker, date] of [
    [stale, daysAgo(3)],
    [expired, daysAgo(30)],
  ] as const)
    rows.push(...rowsOf(await inputsOn(dataDir, 'us', date, [ticker]), 'nightly', `nightly-${date}`));
  for (const date of ['2015-06-30', '2020-12-31'])
    rows.push(...rowsOf(await inputsOn(dataDir, 'us', date, [withHistory]), 'backfill', `backfill-${date}`));
  const gb = await inputsOn(dataDir, 'gb', TODAY);
  rows.push(...rowsOf(gb, 'nightly', 'nightly-today'));
  await writeSnapshots(dataDir, rows, { fileStem: 'fixture' });
  const funds = await withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, dataDir, { market: 'us', date: TODAY, kind: 'fund' }));
  const fund = { market: 'us', ticker: funds[0]!.listing.ticker };
  return { fresh, stale, expired, unscreened, withHistory, fund };
}

export interface TestApi {
  app: Koa;
  reads: ApiReads;
  /** The forensic endpoints' lake reads (a DuckDB pool opened on first use). */
  forensic: ForensicReads;
  /** The purification endpoint's lake reads (a DuckDB pool opened on first use). */
  purification: PurificationReads;
}

/** The Koa app over a lake, with the given refresher (default: none available). */
export async function createTestApi(
  dataDir: string,
  refresher: Refresher = unavailableRefresher,
  accessControl?: Middleware[],
  /** Further parts of the app (the account pages and their sign-in, a logger to read). */
  extra: Partial<Pick<AppDeps, 'accountPages' | 'account' | 'logger'>> = {},
): Promise<TestApi> {
  const reads = await openApiReads({ dataDir, followIntervalMs: 0 });
  const forensic = new ForensicReads(dataDir);
  const purification = new PurificationReads(dataDir);
  const app = createApp({
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(),
    readiness: {},
    screen: { reads, refresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
    forensic: { lake: forensic },
    purification: { lake: purification },
    baseUrl: 'http://127.0.0.1',
    ...(accessControl ? { accessControl } : {}),
    ...extra,
  });
  return { app, reads, forensic, purification };
}

export interface ServedLakeApi {
  dataDir: string;
  t: FixtureTickers;
  api: TestApi;
  server: { url: string; close: () => Promise<void> };
  /** Stops the server, closes the reads and removes the lake. */
  close(): Promise<void>;
}

/** A fresh sample lake with the API serving it on an ephemeral port (one per describe block). */
export async function serveLakeApi(refresher?: Refresher, accessControl?: Middleware[]): Promise<ServedLakeApi> {
  const temp = await makeTempDir();
  const t = await buildLake(temp.dir);
  const api = await createTestApi(temp.dir, refresher, accessControl);
  const server = await listen(api.app);
  return {
    dataDir: temp.dir,
    t,
    api,
    server,
    async close() {
      await server.close();
      await api.reads.close();
      await api.forensic.close();
      await api.purification.close();
      await temp.cleanup();
    },
  };
}
