/**
 * Spread read benchmark (`npx tsx bench/api-spread.bench.ts`): what real clients do, each request
 * a different ticker, so the API's report cache is cold and every answer reads its stored result.
 * Open loop: the paced generator (bench/paced-load.ts) runs in a Node process of its own, sends
 * evenly at 50, 200, 500 and 1,000 req/s over 50 keep-alive connections and times each request
 * from when it was due. Every rate gets a fresh app (cold caches) over the same reads, with real
 * access control (a partner key, metered). Beside each run: the bare route (a Koa route returning
 * one screen body from memory) at the same rate, the machine's floor. Each spread run and the
 * batches also report the API process's CPU time (all its threads, process.cpuUsage) per
 * request: on a shared machine it moves far less with other work than latency does. Each rate
 * runs once per serving variant (`SERVING_VARIANTS`: before / after the render-thread changes),
 * and each run records where its tail comes from (bench/tail-probes.ts: event-loop delay, GC
 * pauses, stored-result reads; the render threads' queue wait and run time). Then: one hot ticker at
 * 500 req/s (the old benchmark's pattern, for comparison only), batches of 100 distinct cold
 * tickers, and the fallback path alone (sidecars off: every result read from Parquet through
 * the bounded queue) at 50 and 200 req/s.
 *
 * Data: a lake as the nightly screen leaves it (test/api/support/spread-lake.ts): the synthetic
 * sample universe at API_SPREAD_SCALE (default 1) for API_SPREAD_MARKETS (default `us`), every
 * stock screened with its full result and published in files of 5,000 snapshots.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import pino from 'pino';
import { createApp } from '../api/app.ts';
import { unavailableRefresher } from '../api/refresher.ts';
import { createMetrics } from '../api/metrics.ts';
import { openApiReads, type ApiReads } from '../warehouse/api-reads/api-reads.ts';
import { lakeRoot } from '../warehouse/lake-paths.ts';
import { buildSpreadLake } from '../test/api/support/spread-lake.ts';
import { listen } from '../test/support/http.ts';
import { openBenchAccess } from './bench-access.ts';
import { describeMachine } from './machine.ts';
import { jsonFromScript, pacedLoadInProcess, type PacedLoadFigures } from './paced-load.ts';
import { formatTail, startTailProbe, type TailFigures } from './tail-probes.ts';
import { DEFAULT_RENDER_THREADS, threadedReportRenderer, type RenderTimings } from '../api/report-renderer.ts';
import { PRERENDER_REPORTS } from '../api/report-prerender.ts';

export const SPREAD_RATES = [50, 200, 500, 1_000];

/**
 * How cold reports are served, compared at each rate in the same run: `before` as the API did
 * until 2026-11-24 (one render thread; the sidecar row read on the event loop, asynchronously),
 * `after` with DEFAULT_RENDER_THREADS threads, each reading its sidecar rows itself, and
 * `prerendered` as `npm start` serves now: sidecars hold each row's default report rendered
 * when they were built (docs/serving.md, "Pre-rendered reports"), so a cold screen reads and
 * inflates it, no render thread. Default: `after,prerendered`.
 */
export type ServingVariant = 'before' | 'after' | 'prerendered';
export const SERVING_VARIANTS: ServingVariant[] = ['after', 'prerendered'];

export interface SpreadRun {
  ratePerSecond: number;
  /** How the measured app served cold reports (see `SERVING_VARIANTS`). */
  variant: ServingVariant;
  spread: PacedLoadFigures;
  /** CPU time of the API's process (all its threads) per 1,000 spread requests, ms: far less sensitive to a busy machine than latency. */
  cpuMsPer1000: number;
  /** Time the API's event loop was busy per 1,000 spread requests, ms (the share of the work that queues every other request). */
  eventLoopMsPer1000: number;
  /** CPU time of the event loop's thread alone per 1,000 spread requests, ms (Linux only, else null; 10 ms ticks). */
  mainThreadCpuMsPer1000: number | null;
  bare: PacedLoadFigures;
  /** The API process during the run: event-loop delay, GC pauses, stored-result reads and renders. */
  tail: TailFigures;
  /** The render threads' queue wait and run time (post to reply). */
  render: RenderTimings | null;
}

export interface BatchFigures {
  /**
   * How the app served the batches' reports: `prerendered` as `npm start` does, `after` rendered
   * from plain sidecars (as every batch was before batches took pre-rendered reports).
   */
  variant: ServingVariant;
  batches: number;
  /** Results per batch (each should be 100). */
  resultCounts: number[];
  /** Answers other than 200. */
  errors: number;
  p50Ms: number;
  maxMs: number;
  /** CPU time of the API's process per batch of 100, ms (the client runs in a process of its own). */
  cpuMsPerBatch: number;
}

export interface SpreadExtras {
  hot: PacedLoadFigures & { ratePerSecond: number };
  batches: BatchFigures[];
  queueOnly: Array<{ ratePerSecond: number; spread: PacedLoadFigures }>;
}

export interface SpreadBenchFigures {
  scale: number;
  markets: string[];
  stocks: number;
  snapshotFiles: number;
  openSeconds: number;
  sidecarSeconds: number;
  rssMiB: number;
  runs: SpreadRun[];
  extras: SpreadExtras | null;
  /** Pre-rendered sidecars (when a run uses them): seconds to build them all, and their bytes on disk beside the plain ones. */
  prerendered: { buildSeconds: number; bytes: number; plainBytes: number } | null;
  /** 1-minute load average of the machine when the runs started and ended: other work skews every figure. */
  loadAverage: [number, number];
}

interface Served {
  url: string;
  renderTimings(): RenderTimings | null;
  close(): Promise<void>;
}

/** Bytes of the files directly in `dir` (0 when it is missing). */
function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);
}

/** Deterministic shuffle, so runs spread over the whole universe and repeat between machines. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  let seed = 16;
  for (let i = out.length - 1; i > 0; i -= 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** CPU time of this process's main thread (the event loop's), ms: user + system ticks of /proc/self/task/<pid>/stat; null off Linux. */
function mainThreadCpuMs(): number | null {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, every thread of this process) spent in `work`, the event loop
 * thread's share of it, and the time the event loop was busy meanwhile, in ms.
 */
async function withCpuMs<T>(
  work: () => Promise<T>,
): Promise<{ value: T; cpuMs: number; mainThreadCpuMs: number | null; eventLoopMs: number }> {
  const before = process.cpuUsage();
  const mainBefore = mainThreadCpuMs();
  const loopBefore = performance.eventLoopUtilization();
  const value = await work();
  const used = process.cpuUsage(before);
  const mainAfter = mainThreadCpuMs();
  const loop = performance.eventLoopUtilization(loopBefore);
  return {
    value,
    cpuMs: (used.user + used.system) / 1000,
    mainThreadCpuMs: mainBefore === null || mainAfter === null ? null : mainAfter - mainBefore,
    eventLoopMs: loop.active,
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Runs the spread benchmark and returns its figures. */
export async function runApiSpreadBench(
  options: { scale?: number; seconds?: number; markets?: string[]; rates?: number[]; variants?: ServingVariant[]; extras?: boolean } = {},
): Promise<SpreadBenchFigures> {
  const scale = options.scale ?? Number(process.env.API_SPREAD_SCALE ?? 1);
  const markets = options.markets ?? (process.env.API_SPREAD_MARKETS ?? 'us').split(',');
  const seconds = options.seconds ?? Number(process.env.API_SPREAD_SECONDS ?? 10);
  const rates = options.rates ?? (process.env.API_SPREAD_RATES ? process.env.API_SPREAD_RATES.split(',').map(Number) : SPREAD_RATES);
  const variants =
    options.variants ??
    (process.env.API_SPREAD_VARIANTS ? (process.env.API_SPREAD_VARIANTS.split(',') as ServingVariant[]) : SERVING_VARIANTS);
  const dataDir = process.env.API_SPREAD_DATA_DIR ?? path.join(os.tmpdir(), `faithscreen-api-spread-${markets.join('-')}-${scale}`);
  if (!existsSync(path.join(lakeRoot(dataDir), 'snapshots', `market=${markets[0]}`))) await buildSpreadLake(dataDir, { scale, markets });

  let started = performance.now();
  const reads = await openApiReads({ dataDir, followIntervalMs: 500 });
  const openSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await reads.whenSidecarsBuilt();
  const sidecarSeconds = (performance.now() - started) / 1000;
  // The pre-rendering reads (their own sidecar folder), opened only when a run uses them.
  let prerendered: SpreadBenchFigures['prerendered'] = null;
  let prerenderedReads: ApiReads | null = null;
  if (variants.includes('prerendered')) {
    const dir = path.join(dataDir, 'api-cache', 'results-prerendered');
    started = performance.now();
    prerenderedReads = await openApiReads({
      dataDir,
      followIntervalMs: 0,
      checkpoint: false,
      prerenderReports: PRERENDER_REPORTS,
      sidecars: { dir },
    });
    await prerenderedReads.whenSidecarsBuilt();
    prerendered = {
      buildSeconds: (performance.now() - started) / 1000,
      bytes: folderBytes(dir),
      plainBytes: folderBytes(path.join(dataDir, 'api-cache', 'results')),
    };
  }
  global.gc?.();
  const rssMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
  const stocks = shuffled(markets.flatMap((m) => reads.listings(m).filter((l) => l.kind === 'stock' && reads.current(m, l.ticker))));
  const paths = stocks.map((l) => `/api/screen/${l.market}/${l.ticker}`);
  const { access, key, close: closeAccess } = await openBenchAccess();
  const headers = { 'X-API-Key': key };
  const logger = pino({ level: 'info' }, pino.destination({ dest: os.devNull, sync: false }));
  let offset = 0;
  /** The next `count` paths of the shuffled universe: consecutive runs ask for different tickers. */
  const nextPaths = (count: number) => {
    const out = Array.from({ length: Math.min(count, paths.length) }, (_, i) => paths[(offset + i) % paths.length]!);
    offset = (offset + out.length) % paths.length;
    return out;
  };
  /** One paced spread run at `ratePerSecond` against the app at `url`, each request a ticker not asked for before. */
  const spreadLoad = (url: string, ratePerSecond: number) =>
    pacedLoadInProcess({ url, paths: nextPaths(ratePerSecond * seconds), headers, ratePerSecond, seconds, connections: 50 });
  /**
   * A fresh app over `over`, its report and result caches cold for the tickers measured next. It
   * is warmed first (2 s on other tickers): a new app's first requests pay one-off costs (first
   * connections, first runs of its code) that put ~1 % of a run at 150-300 ms, which no client
   * of a running API meets.
   */
  const serveApp = async (over: ApiReads, variant: ServingVariant = 'after'): Promise<Served> => {
    if (variant === 'prerendered') over = prerenderedReads!;
    const renderer = threadedReportRenderer(variant === 'before' ? 1 : DEFAULT_RENDER_THREADS);
    // Without sidecar rows to hand over, a cold report's result is read on the event loop first, as before.
    if (variant === 'before') over = Object.assign(Object.create(over) as ApiReads, { sidecarRow: () => null });
    const served = await listen(
      createApp({
        logger,
        metrics: createMetrics(),
        readiness: {},
        screen: { reads: over, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 }, renderer },
        accessControl: access.middleware,
      }),
    );
    await pacedLoadInProcess({ url: served.url, paths: nextPaths(400), headers, ratePerSecond: 200, seconds: 2, connections: 50 });
    renderer.timings?.();
    return {
      url: served.url,
      renderTimings: () => renderer.timings?.() ?? null,
      close: async () => {
        await served.close();
        await renderer.close();
      },
    };
  };

  const probe = await serveApp(reads);
  const body = await (await fetch(`${probe.url}${paths[0]}`, { headers })).text();
  await probe.close();
  const bareApp = new Koa();
  bareApp.use((ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
  const bare = await listen(bareApp);
  await pacedLoadInProcess({ url: bare.url, paths: ['/'], ratePerSecond: 200, seconds: 2, connections: 50 });
  /** 20 batches of 100 distinct cold tickers, one after another from a client process of its own, on a fresh app serving `variant`. */
  const measureBatches = async (variant: ServingVariant): Promise<BatchFigures> => {
    const api = await serveApp(reads, variant);
    const bodies = Array.from({ length: 20 }, () => ({
      tickers: nextPaths(100).map((p) => ({ market: p.split('/')[3]!, ticker: p.split('/')[4]! })),
    }));
    const { value: answers, cpuMs } = await withCpuMs(() => batchesInProcess(`${api.url}/api/screen/batch`, headers, bodies)).finally(() =>
      api.close(),
    );
    const latencies = [...answers.latenciesMs].sort((a, b) => a - b);
    return {
      variant,
      batches: latencies.length,
      cpuMsPerBatch: Math.round(cpuMs / latencies.length),
      resultCounts: answers.resultCounts,
      errors: answers.statuses.filter((status) => status !== 200).length,
      p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
      maxMs: Math.round(latencies.at(-1)! * 10) / 10,
    };
  };
  /** One hot ticker, batches of 100 and the fallback path alone (API_SPREAD_EXTRAS=0 skips them). */
  const measureExtras = async (): Promise<SpreadExtras> => {
    const hotApi = await serveApp(reads);
    const hot = {
      ratePerSecond: 500,
      ...(await pacedLoadInProcess({ url: hotApi.url, paths: [paths[0]!], headers, ratePerSecond: 500, seconds, connections: 50 })),
    };
    await hotApi.close();

    const batches: BatchFigures[] = [];
    // Pre-rendered first when measured (how `npm start` serves), then rendered: the baseline, in the same run.
    for (const variant of variants.includes('prerendered') ? (['prerendered', 'after'] as const) : (['after'] as const)) {
      batches.push(await measureBatches(variant));
    }

    const queueOnly: SpreadExtras['queueOnly'] = [];
    const queueReads = await openApiReads({ dataDir, followIntervalMs: 0, sidecars: false });
    try {
      for (const ratePerSecond of [50, 200]) {
        const api = await serveApp(queueReads);
        queueOnly.push({
          ratePerSecond,
          spread: await spreadLoad(api.url, ratePerSecond),
        });
        await api.close();
      }
    } finally {
      await queueReads.close();
    }
    return { hot, batches, queueOnly };
  };
  const loadAtStart = os.loadavg()[0]!;
  try {
    const runs: SpreadRun[] = [];
    for (const [ratePerSecond, variant] of rates.flatMap((rate) => variants.map((v) => [rate, v] as const))) {
      const api = await serveApp(reads, variant);
      const probe = startTailProbe();
      const measured = variant === 'prerendered' ? prerenderedReads! : reads;
      const storedResults = measured.storedResults;
      measured.storedResults = probe.timed('stored-result read', storedResults.bind(measured));
      const { value: spread, cpuMs, mainThreadCpuMs: mainMs, eventLoopMs } = await withCpuMs(() => spreadLoad(api.url, ratePerSecond));
      measured.storedResults = storedResults;
      const tail = probe.stop();
      const render = api.renderTimings();
      await api.close();
      runs.push({
        ratePerSecond,
        variant,
        spread,
        tail,
        render,
        cpuMsPer1000: Math.round((cpuMs / Math.max(1, spread.completed)) * 1000),
        eventLoopMsPer1000: Math.round((eventLoopMs / Math.max(1, spread.completed)) * 1000),
        mainThreadCpuMsPer1000: mainMs === null ? null : Math.round((mainMs / Math.max(1, spread.completed)) * 1000),
        bare:
          variant === variants[0]
            ? await pacedLoadInProcess({ url: bare.url, paths: ['/'], ratePerSecond, seconds, connections: 50 })
            : runs.at(-1)!.bare,
      });
    }

    const extras = (options.extras ?? process.env.API_SPREAD_EXTRAS !== '0') ? await measureExtras() : null;
    const loadAverage: [number, number] = [loadAtStart, os.loadavg()[0]!];
    return {
      scale,
      markets,
      stocks: stocks.length,
      snapshotFiles: reads.stats().snapshotFiles,
      openSeconds,
      sidecarSeconds,
      rssMiB,
      prerendered,
      runs,
      extras,
      loadAverage,
    };
  } finally {
    await bare.close();
    await reads.close();
    await prerenderedReads?.close();
    await closeAccess();
  }
}

/** The first batch run's p50 and CPU against another's: how much the first saves. */
function ratio(b: BatchFigures, first: BatchFigures): string {
  return `${first.variant} takes ${(first.p50Ms / b.p50Ms).toFixed(2)}× its p50 and ${(first.cpuMsPerBatch / b.cpuMsPerBatch).toFixed(2)}× its CPU`;
}

/** Sends `bodies` to `url` one after another from bench/batch-client.mjs, a Node process of its own. */
function batchesInProcess(
  url: string,
  headers: Record<string, string>,
  bodies: unknown[],
): Promise<{ latenciesMs: number[]; resultCounts: number[]; statuses: number[] }> {
  return jsonFromScript(new URL('./batch-client.mjs', import.meta.url), { url, headers, batches: bodies });
}

function statusText(f: PacedLoadFigures): string {
  const other = Object.entries(f.statuses).filter(([code]) => code !== '200');
  return other.length === 0 ? 'all 200' : other.map(([code, n]) => `${n}× ${code}`).join(', ');
}

const variantText: Record<ServingVariant, string> = {
  before: 'before (1 render thread, sidecar read on the event loop)',
  after: `render threads (${DEFAULT_RENDER_THREADS}, reading their sidecar rows)`,
  prerendered: 'pre-rendered (sidecars hold the default report: read + inflate, no render thread)',
};

/** The figures as printed lines. */
export function formatApiSpreadBench(f: SpreadBenchFigures): string[] {
  const load = (p: PacedLoadFigures) =>
    `p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms, errors ${p.errors} of ${p.sent} (${statusText(p)})`;
  return [
    `[api-spread] lake: sample scale ${f.scale}, markets ${f.markets.join(',')}: ${f.stocks} stocks with a full current result in ` +
      `${f.snapshotFiles} snapshot files`,
    `[api-spread] reads open in ${f.openSeconds.toFixed(1)} s, point-read sidecars ready ${f.sidecarSeconds.toFixed(1)} s later; RSS ${f.rssMiB} MiB`,
    ...(f.prerendered
      ? [
          `[api-spread] pre-rendered sidecars built in ${f.prerendered.buildSeconds.toFixed(1)} s, ${(f.prerendered.bytes / 2 ** 20).toFixed(1)} MiB ` +
            `on disk (plain sidecars ${(f.prerendered.plainBytes / 2 ** 20).toFixed(1)} MiB)`,
        ]
      : []),
    `[api-spread] machine load average (1 min) ${f.loadAverage[0].toFixed(1)} at the first run, ${f.loadAverage[1].toFixed(1)} at ` +
      `the last (other work on the machine skews every figure)`,
    ...f.runs.flatMap((r, i) => [
      `[api-spread] spread (each request a different ticker, caches cold), ${variantText[r.variant]}, paced at ${r.ratePerSecond} ` +
        `req/s: ${load(r.spread)}; API CPU ${r.cpuMsPer1000} ms (event-loop thread ` +
        `${r.mainThreadCpuMsPer1000 ?? 'n/a'} ms, loop busy ${r.eventLoopMsPer1000} ms) per 1,000 requests ` +
        `(target: 0 errors)`,
      `[api-spread]   API process during the run: ${formatTail(r.tail)}` +
        (r.render
          ? `; render thread queue wait p50 ${r.render.wait.p50Ms} / p99 ${r.render.wait.p99Ms} / max ${r.render.wait.maxMs} ms, ` +
            `run p50 ${r.render.run.p50Ms} / p99 ${r.render.run.p99Ms} / max ${r.render.run.maxMs} ms`
          : ''),
      ...(f.runs[i + 1]?.ratePerSecond === r.ratePerSecond
        ? []
        : [`[api-spread]   bare Koa route, same body from memory, at ${r.ratePerSecond} req/s: ${load(r.bare)} (control)`]),
    ]),
    ...(f.extras ? formatExtras(f.extras) : []),
  ];
}

function formatExtras(f: SpreadExtras): string[] {
  const load = (p: PacedLoadFigures) =>
    `p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms, errors ${p.errors} of ${p.sent} (${statusText(p)})`;
  return [
    `[api-spread] hot ticker (one ticker again and again: the report cache answers), paced at ${f.hot.ratePerSecond} req/s: ${load(f.hot)} (comparison only)`,
    ...f.batches.map(
      (b) =>
        `[api-spread] batch of 100 distinct cold tickers × ${b.batches}, ${variantText[b.variant]}: p50 ${b.p50Ms} ms, max ${b.maxMs} ms, ` +
        `results per batch ${[...new Set(b.resultCounts)].join('/')}, errors ${b.errors}, API CPU ${b.cpuMsPerBatch} ms per batch` +
        (b === f.batches[0] ? '' : ` (${ratio(b, f.batches[0]!)})`) +
        ' (target < 150 ms, 100 results)',
    ),
    ...f.queueOnly.map(
      (q) =>
        `[api-spread] fallback path alone (sidecars off, every result from Parquet through the bounded queue), spread at ${q.ratePerSecond} ` +
        `req/s: ${load(q.spread)}`,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const text of formatApiSpreadBench(await runApiSpreadBench())) console.log(text);
}
