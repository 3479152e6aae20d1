/**
 * Verification benchmark (`npx tsx bench/verify.bench.ts`): GET /api/attest/verify/{cert_id}
 * against 127.0.0.1, over certificates minted through the real API (access control on, a real
 * key) into a real service.db. Target: p99 < 10 ms. Verification reads service.db once
 * (indexed), recomputes the HMAC and checks the snapshot in the API's in-memory index: no Parquet.
 *
 * Method as in bench/api.bench.ts: flat out (closed loop, 50 connections: throughput; its p99 is
 * queueing at saturation), then paced evenly at 250–2,000 req/s (bench/paced-load.ts: the p99
 * the target is about), with a bare Koa route answering the same JSON paced at the same rates
 * as the control for what this machine and load generator allow. The use-case is also timed
 * in process.
 *
 * autocannon comes from one address, so the per-IP limit (60 a minute) is raised for this run;
 * the limiter still runs on every request. Bounded: VERIFY_BENCH_SECONDS per phase (default 10).
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import autocannon from 'autocannon';
import Koa from 'koa';
import pino from 'pino';
import { snapshotRowFrom } from '../activities/snapshot-rows.ts';
import { createApp } from '../api/app.ts';
import { createAttestContext } from '../api/attest-context.ts';
import { unavailableRefresher } from '../api/refresher.ts';
import { createScreenService } from '../api/screen-service.ts';
import { verifyAttestation } from '../api/use-cases/verify-attestation.ts';
import { screenCompany } from '../engine/index.ts';
import { createMetrics } from '../api/metrics.ts';
import { openServiceDb } from '../service-state/db.ts';
import { openApiReads } from '../reads/api-reads.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { ingestSource } from '../sources/ingest.ts';
import { loadScreeningInputs } from '../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import { listen } from '../test/support/http.ts';
import { openBenchAccess } from './bench-access.ts';
import { describeMachine } from './machine.ts';
import { pacedSweep, type PacedRun } from './paced-load.ts';

type Paced = PacedRun;

export interface VerifyBenchFigures {
  certificates: number;
  snapshots: number;
  seconds: number;
  mintMsEach: number;
  /** The verification use-case alone, in process (no HTTP): µs per call. */
  inProcess: { p50Us: number; p99Us: number };
  /** Closed loop, 50 connections. */
  flatOut: { requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number };
  /** Paced evenly at each of PACED_RATES below the flat-out rate. */
  paced: Paced[];
  /** The bare Koa route (same JSON from memory) paced at the same rates: the floor. */
  bareControl: Paced[];
  loadAverage: number[];
}

const TODAY = new Date().toISOString().slice(0, 10);
const CACHE = { freshDays: 1, staleWhileRevalidateDays: 7 };

async function prepareLake(dataDir: string, scale: number): Promise<void> {
  await ingestSource({ source: 'sample', scale, dataDir, asOf: TODAY, markets: ['us'], concurrency: 2 });
  const inputs = await withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, dataDir, { market: 'us', date: TODAY, kind: 'stock' }));
  const rows = inputs.map((input) =>
    snapshotRowFrom(input, screenCompany(input), { source: 'nightly', runId: 'verify-bench', screenedAt: `${TODAY}T02:00:00.000` }),
  );
  await writeSnapshots(dataDir, rows, { fileStem: 'verify-bench' });
}

/** Per-call time of the verification use-case (service.db read, HMAC, in-memory snapshot check, JSON), 20,000 calls. */
async function timeInProcess(
  ctx: ReturnType<typeof createAttestContext>,
  ids: readonly string[],
): Promise<{ p50Us: number; p99Us: number }> {
  const times: number[] = [];
  for (let i = 0; i < 20_000; i += 1) {
    const started = performance.now();
    JSON.stringify(await verifyAttestation(ctx, ids[i % ids.length]!));
    times.push((performance.now() - started) * 1000);
  }
  times.sort((a, b) => a - b);
  return { p50Us: Math.round(times[10_000]!), p99Us: Math.round(times[19_800]!) };
}

/** Mints certificates over HTTP, then loads the verify endpoint; returns the figures. */
export async function runVerifyBench(
  options: { scale?: number; certificates?: number; seconds?: number } = {},
): Promise<VerifyBenchFigures> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'faithscreen-verify-bench-'));
  const seconds = options.seconds ?? Number(process.env.VERIFY_BENCH_SECONDS ?? 10);
  try {
    await prepareLake(dataDir, options.scale ?? 0.02);
    const reads = await openApiReads({ dataDir, followIntervalMs: 0 });
    const db = await openServiceDb({ dataDir });
    const { access, key, close: closeAccess } = await openBenchAccess({ endpoints: ['attest'] });
    const logger = pino({ level: 'info' }, pino.destination({ dest: os.devNull, sync: false }));
    const app = createApp({
      logger,
      metrics: createMetrics(),
      readiness: {},
      screen: { reads, refresher: unavailableRefresher, cache: CACHE },
      attest: { db, dataDir, verifyRateLimit: { limit: 1_000_000_000, windowMs: 60_000 } },
      accessControl: access.middleware,
      baseUrl: 'http://127.0.0.1',
    });
    const api = await listen(app);
    try {
      const tickers = reads
        .listings('us')
        .filter((l) => reads.current('us', l.ticker)?.statuses.shariah_djim !== 'insufficient_data' && reads.current('us', l.ticker));
      const wanted = options.certificates ?? 500;
      const ids: string[] = [];
      const started = performance.now();
      for (let i = 0; i < wanted; i += 1) {
        const response = await fetch(`${api.url}/api/attest/us/${tickers[i % tickers.length]!.ticker}?standard=shariah_djim`, {
          method: 'POST',
          headers: { 'X-API-Key': key },
        });
        if (response.status !== 200) throw new Error(`mint answered ${response.status}: ${await response.text()}`);
        ids.push(((await response.json()) as { cert_id: string }).cert_id);
      }
      const mintMsEach = (performance.now() - started) / wanted;
      const inProcess = await timeInProcess(
        createAttestContext({ db, dataDir }, createScreenService({ reads, refresher: unavailableRefresher, cache: CACHE }), api.url),
        ids,
      );

      const paths = ids.map((id) => `/api/attest/verify/${id}`);
      const flat = await autocannon({
        url: api.url,
        connections: 50,
        duration: seconds,
        workers: 1,
        requests: paths.map((p) => ({ method: 'GET', path: p })),
      });
      const flatOut = {
        requestsPerSecond: Math.round(flat.requests.average),
        p50Ms: flat.latency.p50,
        p99Ms: flat.latency.p99,
        errors: flat.errors + flat.non2xx,
      };
      const paced = await pacedSweep(api.url, paths, seconds, {}, flatOut.requestsPerSecond);

      const sample = await (await fetch(`${api.url}${paths[0]}`)).text();
      const bareApp = new Koa();
      bareApp.use((ctx) => {
        ctx.type = 'application/json';
        ctx.body = sample;
      });
      const bare = await listen(bareApp);
      let bareControl: Paced[];
      try {
        bareControl = await pacedSweep(bare.url, ['/'], seconds, {}, flatOut.requestsPerSecond);
      } finally {
        await bare.close();
      }
      return {
        certificates: ids.length,
        snapshots: reads.stats().snapshots,
        seconds,
        mintMsEach,
        inProcess,
        flatOut,
        paced,
        bareControl,
        loadAverage: os.loadavg(),
      };
    } finally {
      await api.close();
      await reads.close();
      await closeAccess();
      await db.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The figures as printed lines. */
export function formatVerifyBench(f: VerifyBenchFigures): string[] {
  const paced = (name: string, p: Paced, note: string) =>
    `[attest] ${name}, paced at ${p.ratePerSecond} req/s: p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms, errors ${p.errors} of ${p.sent} (${note})`;
  return [
    `[attest] load average at the end: ${f.loadAverage.map((l) => l.toFixed(1)).join(' ')} (other processes share these cores)`,
    `[attest] minted ${f.certificates} certificates over HTTP with a key (${f.mintMsEach.toFixed(1)} ms each, committed with ` +
      `synchronous=FULL) over ${f.snapshots} snapshots`,
    `[attest] verification use-case in process: p50 ${f.inProcess.p50Us} µs, p99 ${f.inProcess.p99Us} µs per call (service.db read, ` +
      `HMAC, snapshot check, JSON)`,
    `[attest] verify flat out: ${f.flatOut.requestsPerSecond} req/s at 50 connections for ${f.seconds} s, p50 ${f.flatOut.p50Ms} ` +
      `ms, p99 ${f.flatOut.p99Ms} ms, errors ${f.flatOut.errors} (saturation: queueing)`,
    ...f.paced.map((p) => paced('verify', p, 'p99 target < 10 ms')),
    ...f.bareControl.map((p) => paced('bare Koa route', p, 'control: the same rate on a route that does nothing')),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const line of formatVerifyBench(await runVerifyBench())) console.log(line);
}
