/**
 * Verification benchmark (`npx tsx bench/verify.bench.ts`): GET /api/attest/verify/{cert_id}
 * against 127.0.0.1 with autocannon, over certificates minted through the real API into a real
 * service.db (synchronous=FULL). Target: p99 < 10 ms. Verification reads service.db once
 * (indexed), recomputes the HMAC and checks the snapshot in the API's in-memory index: no Parquet.
 *
 * autocannon comes from one address, so the per-IP limit (60 a minute) is raised for this run;
 * the limiter itself still runs on every request. Bounded: VERIFY_BENCH_SECONDS (default 10).
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
import { createScreenContext } from '../api/screen-context.ts';
import { verifyAttestation } from '../api/use-cases/verify-attestation.ts';
import { unavailableRefresher } from '../api/refresher.ts';
import { screenCompany } from '../engine/index.ts';
import { createMetrics } from '../platform/metrics.ts';
import { openServiceDb } from '../service-state/db.ts';
import { openApiReads } from '../warehouse/api-reads.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { ingestSource } from '../warehouse/ingest.ts';
import { loadScreeningInputs } from '../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import { describeMachine } from './machine.ts';

export interface VerifyBenchFigures {
  certificates: number;
  snapshots: number;
  connections: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  mintMsEach: number;
  /** The verification use-case alone, in process (no HTTP): µs per call. */
  inProcess: { p50Us: number; p99Us: number };
  /** A bare Koa route answering the same JSON from memory, same run, same load: what the machine allows. */
  bare: { requestsPerSecond: number; p50Ms: number; p99Ms: number };
}

type Load = { requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number };

async function load(url: string, paths: string[], seconds: number, connections: number): Promise<Load> {
  const result = await autocannon({ url, connections, duration: seconds, workers: 1, requests: paths.map((p) => ({ method: 'GET', path: p })) });
  return { requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, errors: result.errors + result.non2xx };
}

const TODAY = new Date().toISOString().slice(0, 10);

async function prepareLake(dataDir: string, scale: number): Promise<void> {
  await ingestSource({ source: 'sample', scale, dataDir, asOf: TODAY, markets: ['us'], concurrency: 2 });
  const inputs = await withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, dataDir, { market: 'us', date: TODAY, kind: 'stock' }));
  const rows = inputs.map((input) => snapshotRowFrom(input, screenCompany(input), { source: 'nightly', runId: 'verify-bench', screenedAt: `${TODAY}T02:00:00.000` }));
  await writeSnapshots(dataDir, rows, { fileStem: 'verify-bench' });
}

/** Per-call time of the verification use-case (service.db read, HMAC, in-memory snapshot check, JSON), 20,000 calls. */
function timeInProcess(ctx: ReturnType<typeof createAttestContext>, ids: readonly string[]): { p50Us: number; p99Us: number } {
  const times: number[] = [];
  for (let i = 0; i < 20_000; i += 1) {
    const started = performance.now();
    JSON.stringify(verifyAttestation(ctx, ids[i % ids.length]!));
    times.push((performance.now() - started) * 1000);
  }
  times.sort((a, b) => a - b);
  return { p50Us: Math.round(times[10_000]!), p99Us: Math.round(times[19_800]!) };
}

/** Mints certificates over HTTP, then loads the verify endpoint; returns the figures. */
export async function runVerifyBench(options: { scale?: number; certificates?: number; seconds?: number; connections?: number } = {}): Promise<VerifyBenchFigures> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'faithscreen-verify-bench-'));
  const seconds = options.seconds ?? Number(process.env.VERIFY_BENCH_SECONDS ?? 10);
  // One client address is held to 60 a minute in production; 10 concurrent verifiers is already a crowd. 50 matches the read API's bench.
  const connections = options.connections ?? Number(process.env.VERIFY_BENCH_CONNECTIONS ?? 10);
  try {
    await prepareLake(dataDir, options.scale ?? 0.02);
    const reads = await openApiReads({ dataDir, scanIntervalMs: 0 });
    const db = openServiceDb(dataDir);
    const logger = pino({ level: 'info' }, pino.destination({ dest: os.devNull, sync: false }));
    const app = createApp({
      logger,
      metrics: createMetrics(),
      readiness: {},
      screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
      attest: { db, dataDir, verifyRateLimit: { limit: 1_000_000_000, windowMs: 60_000 } },
      baseUrl: 'http://127.0.0.1',
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const tickers = reads.listings('us').filter((l) => reads.current('us', l.ticker)?.statuses.shariah_djim !== 'insufficient_data' && reads.current('us', l.ticker));
      const wanted = options.certificates ?? 500;
      const ids: string[] = [];
      const started = performance.now();
      for (let i = 0; i < wanted; i += 1) {
        const response = await fetch(`${url}/api/attest/us/${tickers[i % tickers.length]!.ticker}?standard=shariah_djim`, { method: 'POST' });
        if (response.status !== 200) throw new Error(`mint answered ${response.status}: ${await response.text()}`);
        ids.push(((await response.json()) as { cert_id: string }).cert_id);
      }
      const mintMsEach = (performance.now() - started) / wanted;
      const inProcess = timeInProcess(createAttestContext({ db, dataDir }, createScreenContext({ reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } }), url), ids);
      const sample = await (await fetch(`${url}/api/attest/verify/${ids[0]}`)).text();
      const bareApp = new Koa();
      bareApp.use((ctx) => {
        ctx.type = 'application/json';
        ctx.body = sample;
      });
      const bareServer = bareApp.listen(0, '127.0.0.1');
      await new Promise<void>((resolve) => bareServer.once('listening', resolve));
      let bare: Load;
      try {
        bare = await load(`http://127.0.0.1:${(bareServer.address() as { port: number }).port}`, ['/'], seconds, connections);
      } finally {
        await new Promise((resolve) => bareServer.close(resolve));
      }
      const verify = await load(url, ids.map((id) => `/api/attest/verify/${id}`), seconds, connections);
      return { certificates: ids.length, snapshots: reads.stats().snapshots, connections, seconds, ...verify, mintMsEach, bare, inProcess };
    } finally {
      await new Promise((resolve) => server.close(resolve));
      reads.close();
      db.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The figures as printed lines. */
export function formatVerifyBench(f: VerifyBenchFigures): string[] {
  return [
    `[attest] load average while measuring: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (other processes share these cores)`,
    `[attest] minted ${f.certificates} certificates over HTTP (${f.mintMsEach.toFixed(1)} ms each, committed with synchronous=FULL) over ${f.snapshots} snapshots`,
    `[attest] verification use-case in process: p50 ${f.inProcess.p50Us} µs, p99 ${f.inProcess.p99Us} µs per call (service.db read, HMAC, snapshot check, JSON)`,
    `[attest] bare Koa route, same JSON from memory, ${f.connections} connections: ${f.bare.requestsPerSecond} req/s, p50 ${f.bare.p50Ms} ms, p99 ${f.bare.p99Ms} ms (baseline, same run)`,
    `[attest] verify: ${f.requestsPerSecond} req/s at ${f.connections} connections for ${f.seconds} s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, errors ${f.errors} (p99 target < 10 ms)`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const line of formatVerifyBench(await runVerifyBench())) console.log(line);
}
