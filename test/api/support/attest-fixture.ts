import type { Middleware } from 'koa';
import pino from 'pino';
import { snapshotRowFrom, type SnapshotMeta } from '../../../activities/snapshot-rows.ts';
import { createApp } from '../../../api/app.ts';
import { unavailableRefresher } from '../../../api/refresher.ts';
import { screenCompany, type ScreeningInput } from '../../../engine/index.ts';
import { createMetrics } from '../../../api/metrics.ts';
import { openServiceDb, type ServiceDb } from '../../../service-state/db.ts';
import { openApiReads, type ApiReads } from '../../../reads/api-reads.ts';
import { withDuckDB } from '../../../warehouse/duckdb.ts';
import { loadScreeningInputs } from '../../../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../../../warehouse/snapshot-writer.ts';
import { listen } from '../../support/http.ts';
import { testServiceEnv, testServiceState } from '../../support/service-state.ts';
import { makeTempDir } from '../../support/temp-dir.ts';
import { buildLake, type FixtureTickers } from './lake-fixture.ts';

export const BASE_URL = 'https://certs.faithscreen.test';

export interface AttestApiOptions {
  /** Access control over the same DATA_DIR (built once the lake exists). */
  accessFor?: (dataDir: string) => Middleware[] | Promise<Middleware[]>;
  verifyRateLimit?: { limit: number; windowMs: number };
  /** Collects the API's log lines (JSON text) instead of discarding them. */
  logLines?: string[];
}

export interface ServedAttestApi {
  dataDir: string;
  t: FixtureTickers;
  reads: ApiReads;
  /** The API's own connection to the service state (tests read and alter the stored rows through it). */
  db: ServiceDb;
  url: string;
  close(): Promise<void>;
}

/** The sample lake of lake-fixture.ts, the real service state (test/support/service-state.ts), and the API with attestations on an ephemeral port. */
export async function serveAttestApi(options: AttestApiOptions = {}): Promise<ServedAttestApi> {
  const temp = await makeTempDir('faithscreen-attest-');
  const t = await buildLake(temp.dir);
  const reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
  const db = await openServiceDb(await testServiceState(temp.dir));
  const access = await options.accessFor?.(temp.dir);
  const app = createApp({
    logger: options.logLines
      ? pino({ level: 'info' }, { write: (line: string) => options.logLines!.push(line) })
      : pino({ level: 'silent' }),
    metrics: createMetrics(),
    readiness: {},
    screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
    attest: { db, dataDir: temp.dir, ...(options.verifyRateLimit ? { verifyRateLimit: options.verifyRateLimit } : {}) },
    baseUrl: BASE_URL,
    ...(access ? { accessControl: access } : {}),
  });
  const server = await listen(app);
  return {
    dataDir: temp.dir,
    t,
    reads,
    db,
    url: server.url,
    async close() {
      await server.close();
      await reads.close();
      await db.close();
      await temp.cleanup();
    },
  };
}

/** The ticker's screening input on `date`, loaded from the lake as the pipelines load it. */
export async function inputOn(dataDir: string, market: string, ticker: string, date: string): Promise<ScreeningInput> {
  const [input] = await withDuckDB(':memory:', {}, (c) =>
    loadScreeningInputs(c, dataDir, { market, date, kind: 'stock', tickers: [ticker] }),
  );
  if (!input) throw new Error(`no screening input for ${market}/${ticker} on ${date}`);
  return input;
}

/**
 * Screens `input` with the real engine and publishes the snapshot with the pipelines' writer
 * (its own file), then lets the API's reads see it.
 */
export async function publishScreen(api: ServedAttestApi, input: ScreeningInput, meta: SnapshotMeta): Promise<void> {
  const row = snapshotRowFrom(input, screenCompany(input), meta);
  await writeSnapshots(api.dataDir, [row], { fileStem: meta.runId });
  await api.reads.sync();
}

/** Runs the real `faithscreen` CLI (as an operator would) on `dataDir`; resolves with its exit code and output. */
export async function runFaithscreen(dataDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { execFile } = await import('node:child_process');
  const bin = new URL('../../../bin/faithscreen.js', import.meta.url).pathname;
  const env = { ...process.env, ...(await testServiceEnv(dataDir)) };
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
