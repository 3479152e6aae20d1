/**
 * Read API benchmark (`npx tsx bench/api.bench.ts`): in one run, against 127.0.0.1 at 50
 * connections, the cached single screen vs a bare Koa route returning the same JSON from
 * memory, then as_of reads and universe search. Targets: cached ≥ 40% of bare throughput,
 * cached p99 < 10 ms, as_of p99 < 20 ms, search p99 < 10 ms, API RSS < 1 GiB.
 *
 * The API runs as in production, with access control: every metered request carries a real
 * key and is charged in service.db. Each route is measured twice: flat out (closed loop, 50
 * connections, for throughput; its p99 is queueing at saturation, where even the bare route's
 * p99 exceeds 10 ms on 2 cores) and at a fixed offered load of half that throughput over the
 * same 50 connections, paced evenly by bench/paced-load.ts (the p99 the targets are about:
 * latency under load, below saturation).
 *
 * Data: the synthetic sample universe (full scale unless API_BENCH_SCALE says otherwise) and
 * snapshots written with the pipelines' writer: a current snapshot for every stock (a real
 * engine result, compacted as backfills store it) plus six yearly history snapshots each.
 * History rows carry a short placeholder `result_json`: as_of reads only the index columns.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Koa from 'koa';
import pino from 'pino';
import { compactResult, snapshotRowFrom } from '../activities/snapshot-rows.ts';
import { createApp } from '../api/app.ts';
import { unavailableRefresher } from '../api/refresher.ts';
import { screenCompany, type ScreeningResult } from '../engine/index.ts';
import { createMetrics } from '../api/metrics.ts';
import { openApiReads } from '../reads/api-reads.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { ingestSource } from '../sources/ingest.ts';
import { lakeRoot } from '../warehouse/lake-paths.ts';
import { loadScreeningInputs } from '../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import type { SnapshotRow } from '../warehouse/snapshot-schema.ts';
import { listen } from '../test/support/http.ts';
import { openBenchAccess } from './bench-access.ts';
import { describeMachine } from './machine.ts';
import { pacedSweep, type PacedRun } from './paced-load.ts';

export interface LoadFigures {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

/** A route measured flat out and at half its throughput. */
export interface RouteFigures {
  max: LoadFigures;
  /** Paced runs at each of PACED_RATES (those below the flat-out rate). */
  paced: PacedRun[];
}

export interface ApiBenchFigures {
  listings: number;
  snapshots: number;
  loadSeconds: number;
  rssMiB: number;
  bare: LoadFigures;
  /** The bare route paced at the cached route's half rate: the floor this machine and load generator give. */
  bareControl: PacedRun[];
  cached: RouteFigures;
  ratio: number;
  asOf: RouteFigures;
  search: RouteFigures;
}

const TODAY = new Date().toISOString().slice(0, 10);
const HISTORY_DATES = ['2010-06-30', '2013-06-28', '2016-06-30', '2019-06-28', '2022-06-30', '2025-06-30'];

export async function prepareLake(dataDir: string, scale: number): Promise<void> {
  if (existsSync(path.join(lakeRoot(dataDir), 'snapshots', 'market=us'))) return;
  await ingestSource({ source: 'sample', scale, dataDir, asOf: TODAY, concurrency: 2 });
  const reads = await openApiReads({ dataDir, followIntervalMs: 0 });
  const stocks = reads.listings().filter((l) => l.kind === 'stock');
  await reads.close();
  const inputs = await withDuckDB(':memory:', {}, (c) =>
    loadScreeningInputs(c, dataDir, { market: 'us', date: TODAY, kind: 'stock', limit: 500 }),
  );
  const templates = inputs.map((input) => ({ input, result: screenCompany(input) }));
  const rows: SnapshotRow[] = [];
  const flush = async (stem: string) => {
    await writeSnapshots(dataDir, rows.splice(0), { fileStem: stem });
  };
  for (const [i, listing] of stocks.entries()) {
    const { input, result } = templates[i % templates.length]!;
    const relabelled = { ...input, listing: { ...input.listing, market: listing.market, ticker: listing.ticker, name: listing.name } };
    // The first template keeps its full result (reasons and all): it is the benchmarked ticker.
    const stored: ScreeningResult =
      i === 0 ? result : compactResult({ ...result, market: listing.market, ticker: listing.ticker, company_name: listing.name });
    rows.push(snapshotRowFrom(relabelled, stored, { source: 'nightly', runId: 'bench', screenedAt: `${TODAY}T02:00:00.000` }));
    for (const date of HISTORY_DATES) {
      const row = snapshotRowFrom({ ...relabelled, screeningDate: date }, result, {
        source: 'backfill',
        runId: 'bench-history',
        screenedAt: `${date}T03:00:00.000`,
      });
      rows.push({ ...row, result_json: '{"note":"benchmark history row"}' });
    }
    if (rows.length >= 70_000) await flush(`bench-${i}`);
  }
  await flush('bench-last');
}

/** autocannon in a worker thread, flat out at 50 connections. */
async function load(url: string, paths: string[], seconds: number, headers: Record<string, string> = {}): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    connections: 50,
    duration: seconds,
    workers: 1,
    requests: paths.map((p) => ({ method: 'GET', path: p, headers })),
  });
  return { requestsPerSecond: Math.round(result.requests.average), p99Ms: result.latency.p99, errors: result.errors + result.non2xx };
}

async function measureRoute(url: string, paths: string[], seconds: number, headers: Record<string, string>): Promise<RouteFigures> {
  const max = await load(url, paths, seconds, headers);
  return { max, paced: await pacedSweep(url, paths, seconds, headers, max.requestsPerSecond) };
}

/** Runs the read API benchmark and returns its figures. */
export async function runApiBench(options: { dataDir?: string; scale?: number; seconds?: number } = {}): Promise<ApiBenchFigures> {
  const dataDir = options.dataDir ?? process.env.API_BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'faithscreen-api-bench');
  const seconds = options.seconds ?? 10;
  await prepareLake(dataDir, options.scale ?? Number(process.env.API_BENCH_SCALE ?? 1));
  const started = performance.now();
  const reads = await openApiReads({ dataDir, followIntervalMs: 500 });
  const loadSeconds = (performance.now() - started) / 1000;
  global.gc?.();
  const rssMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
  const logger = pino({ level: 'info' }, pino.destination({ dest: os.devNull, sync: false }));
  const { access, key, close: closeAccess } = await openBenchAccess();
  const headers = { 'X-API-Key': key };
  const app = createApp({
    logger,
    metrics: createMetrics(),
    readiness: {},
    screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
    accessControl: access.middleware,
  });
  const api = await listen(app);
  const stocks = reads.listings('us').filter((l) => l.kind === 'stock');
  const hot = `/api/screen/us/${stocks[0]!.ticker}`;
  const json = await (await fetch(`${api.url}${hot}`, { headers })).text();
  const bareApp = new Koa();
  bareApp.use((ctx) => {
    ctx.type = 'application/json';
    ctx.body = json;
  });
  const bare = await listen(bareApp);
  try {
    const bareFigures = await load(bare.url, ['/'], seconds);
    const cached = await measureRoute(api.url, [hot], seconds, headers);
    const bareControl = await pacedSweep(bare.url, ['/'], seconds, {}, bareFigures.requestsPerSecond);
    const sample = stocks.filter((_, i) => i % Math.max(1, Math.floor(stocks.length / 500)) === 0);
    const asOfPaths = sample.map((l, i) => `/api/screen/us/${l.ticker}?as_of=${2011 + (i % 15)}-0${1 + (i % 9)}-15`);
    const asOf = await measureRoute(api.url, asOfPaths, seconds, headers);
    const words = reads
      .listings()
      .filter((_, i) => i % 997 === 0)
      .map((l) => l.name.split(' ')[0]!.slice(0, 4));
    const searchPaths = words.flatMap((w, i) => [
      `/api/universe/search?q=${encodeURIComponent(w)}`,
      `/api/universe/search?q=${encodeURIComponent(w.slice(0, 2))}&market=${i % 2 ? 'us' : 'gb'}&limit=10`,
    ]);
    const search = await measureRoute(api.url, searchPaths, seconds, {});
    const stats = reads.stats();
    return {
      listings: stats.listings,
      snapshots: stats.snapshots,
      loadSeconds,
      rssMiB,
      bare: bareFigures,
      bareControl,
      cached,
      ratio: cached.max.requestsPerSecond / bareFigures.requestsPerSecond,
      asOf,
      search,
    };
  } finally {
    await api.close();
    await bare.close();
    await reads.close();
    await closeAccess();
  }
}

/** The figures as printed lines. */
export function formatApiBench(f: ApiBenchFigures): string[] {
  const line = (name: string, l: LoadFigures, note: string) =>
    `[api] ${name}: ${l.requestsPerSecond} req/s, p99 ${l.p99Ms} ms, errors ${l.errors} (${note})`;
  const paced = (name: string, p: PacedRun, note: string) =>
    `[api] ${name}, paced at ${p.ratePerSecond} req/s: p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms, errors ${p.errors} of ${p.sent} (${note})`;
  const route = (name: string, r: RouteFigures, target: string) => [
    line(`${name}, flat out`, r.max, 'throughput; p99 here is queueing at saturation'),
    ...r.paced.map((p) => paced(name, p, `p99 target ${target}`)),
  ];
  return [
    `[api] loaded ${f.listings} listings and ${f.snapshots} snapshots in ${f.loadSeconds.toFixed(1)} s; RSS ${f.rssMiB} MiB (target < 1024)`,
    line('bare Koa route, same JSON from memory, flat out', f.bare, 'baseline'),
    ...route('cached single screen (with key check and metering)', f.cached, '< 10 ms'),
    ...f.bareControl.map((p) => paced('bare Koa route', p, 'control: the machine and generator floor at this rate')),
    `[api] cached / bare throughput: ${(f.ratio * 100).toFixed(0)}% (target ≥ 40%)`,
    ...route('as_of read (with key check and metering)', f.asOf, '< 20 ms'),
    ...route('universe search', f.search, '< 10 ms'),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const text of formatApiBench(await runApiBench())) console.log(text);
}
