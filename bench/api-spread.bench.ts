/**
 * Spread read benchmark (`npx tsx bench/api-spread.bench.ts`): what real clients do, each request
 * a different ticker, so the API's report cache is cold and every answer reads its stored result.
 * Open loop: the paced generator (bench/paced-load.ts) runs in a Node process of its own, sends
 * evenly at 50, 200, 500 and 1,000 req/s over 50 keep-alive connections and times each request
 * from when it was due. Every rate gets a fresh app (cold caches) over the same reads, with real
 * access control (a partner key, metered). Beside each run: the bare route (a Koa route returning
 * one screen body from memory) at the same rate, the machine's floor. Each spread run and the
 * batches also report the API process's CPU time (all its threads, process.cpuUsage) per
 * request: on a shared machine it moves far less with other work than latency does. The app
 * serves as `npm start` does: stored results are keyed reads of the serving store (docs/serving.md,
 * "The serving store"), rendered in DEFAULT_RENDER_THREADS render threads. Each run records where
 * its tail comes from (bench/tail-probes.ts: event-loop delay, GC pauses, stored-result reads; the
 * render threads' queue wait and run time). Then: one hot ticker at 500 req/s (the old
 * benchmark's pattern, for comparison only) and batches of 100 distinct cold tickers.
 *
 * Data: a lake as the nightly screen leaves it (test/api/support/spread-lake.ts): the synthetic
 * sample universe at API_SPREAD_SCALE (default 1) for API_SPREAD_MARKETS (default `us`), every
 * stock screened with its full result and published in files of 5,000 snapshots (the writer
 * also writes their rows to the serving store; a lake left by an older build is copied into the
 * store at the reads' start, which the first line reports).
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import pino from 'pino';
import { createApp } from '../api/app.ts';
import { ReportPrerenderer } from '../api/report-prerender.ts';
import { unavailableRefresher } from '../api/refresher.ts';
import { createMetrics } from '../api/metrics.ts';
import { openApiReads, type ApiReads } from '../reads/api-reads.ts';
import { lakeRoot } from '../warehouse/lake-paths.ts';
import { buildSpreadLake } from '../test/api/support/spread-lake.ts';
import { listen } from '../test/support/http.ts';
import { openBenchAccess } from './bench-access.ts';
import { describeMachine } from './machine.ts';
import { jsonFromScript, pacedLoadInProcess, type PacedLoadFigures } from './paced-load.ts';
import { formatTail, startTailProbe, type TailFigures } from './tail-probes.ts';
import { DEFAULT_RENDER_THREADS, threadedReportRenderer, type RenderTimings } from '../api/report-renderer.ts';

export const SPREAD_RATES = [50, 200, 500, 1_000];

export interface SpreadRun {
  ratePerSecond: number;
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
  batches: BatchFigures;
}

export interface SpreadBenchFigures {
  scale: number;
  markets: string[];
  stocks: number;
  /** Current rows the reads' start read from the serving store. */
  currentRowsRead: number;
  /** Lake files the start copied into the store because it did not hold them (0 for a lake this build wrote). */
  filesCopied: number;
  openSeconds: number;
  /** Default reports the pre-render pass stored before the runs (0 when an earlier run had stored them all), and its seconds. */
  prerendered: { reports: number; seconds: number };
  rssMiB: number;
  runs: SpreadRun[];
  extras: SpreadExtras | null;
  /** 1-minute load average of the machine when the runs started and ended: other work skews every figure. */
  loadAverage: [number, number];
}

interface Served {
  url: string;
  renderTimings(): RenderTimings | null;
  close(): Promise<void>;
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
  options: { scale?: number; seconds?: number; markets?: string[]; rates?: number[]; extras?: boolean } = {},
): Promise<SpreadBenchFigures> {
  const scale = options.scale ?? Number(process.env.API_SPREAD_SCALE ?? 1);
  const markets = options.markets ?? (process.env.API_SPREAD_MARKETS ?? 'us').split(',');
  const seconds = options.seconds ?? Number(process.env.API_SPREAD_SECONDS ?? 10);
  const rates = options.rates ?? (process.env.API_SPREAD_RATES ? process.env.API_SPREAD_RATES.split(',').map(Number) : SPREAD_RATES);
  const dataDir = process.env.API_SPREAD_DATA_DIR ?? path.join(os.tmpdir(), `faithscreen-api-spread-${markets.join('-')}-${scale}`);
  if (!existsSync(path.join(lakeRoot(dataDir), 'snapshots', `market=${markets[0]}`))) await buildSpreadLake(dataDir, { scale, markets });

  const started = performance.now();
  const reads = await openApiReads({ dataDir, followIntervalMs: 500 });
  const openSeconds = (performance.now() - started) / 1000;
  global.gc?.();
  const rssMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
  // As the API role does when idle: every current row's default report pre-rendered into the store (kept across runs).
  const prerenderStarted = performance.now();
  const prerenderThreads = threadedReportRenderer(DEFAULT_RENDER_THREADS);
  const prerenderer = new ReportPrerenderer(
    { reads, renderer: prerenderThreads, requestsSeen: 0 },
    { idleBatch: 256, intervalMs: 5, quietMs: 0 },
  );
  prerenderer.start();
  while (prerenderer.stats().pending > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  await prerenderer.turn();
  prerenderer.stop();
  await prerenderThreads.close();
  const prerendered = { reports: prerenderer.stats().rendered, seconds: (performance.now() - prerenderStarted) / 1000 };
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
  const serveApp = async (over: ApiReads): Promise<Served> => {
    const renderer = threadedReportRenderer(DEFAULT_RENDER_THREADS);
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
  /** 20 batches of 100 distinct cold tickers, one after another from a client process of its own, on a fresh app. */
  const measureBatches = async (): Promise<BatchFigures> => {
    const api = await serveApp(reads);
    const bodies = Array.from({ length: 20 }, () => ({
      tickers: nextPaths(100).map((p) => ({ market: p.split('/')[3]!, ticker: p.split('/')[4]! })),
    }));
    const { value: answers, cpuMs } = await withCpuMs(() => batchesInProcess(`${api.url}/api/screen/batch`, headers, bodies)).finally(() =>
      api.close(),
    );
    const latencies = [...answers.latenciesMs].sort((a, b) => a - b);
    return {
      batches: latencies.length,
      cpuMsPerBatch: Math.round(cpuMs / latencies.length),
      resultCounts: answers.resultCounts,
      errors: answers.statuses.filter((status) => status !== 200).length,
      p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
      maxMs: Math.round(latencies.at(-1)! * 10) / 10,
    };
  };
  /** One hot ticker and batches of 100 (API_SPREAD_EXTRAS=0 skips them). */
  const measureExtras = async (): Promise<SpreadExtras> => {
    const hotApi = await serveApp(reads);
    const hot = {
      ratePerSecond: 500,
      ...(await pacedLoadInProcess({ url: hotApi.url, paths: [paths[0]!], headers, ratePerSecond: 500, seconds, connections: 50 })),
    };
    await hotApi.close();
    return { hot, batches: await measureBatches() };
  };
  const loadAtStart = os.loadavg()[0]!;
  try {
    const runs: SpreadRun[] = [];
    for (const ratePerSecond of rates) {
      const api = await serveApp(reads);
      const probe = startTailProbe();
      const storedResults = reads.storedResults;
      reads.storedResults = probe.timed('stored-result read', storedResults.bind(reads));
      const { value: spread, cpuMs, mainThreadCpuMs: mainMs, eventLoopMs } = await withCpuMs(() => spreadLoad(api.url, ratePerSecond));
      reads.storedResults = storedResults;
      const tail = probe.stop();
      const render = api.renderTimings();
      await api.close();
      runs.push({
        ratePerSecond,
        spread,
        tail,
        render,
        cpuMsPer1000: Math.round((cpuMs / Math.max(1, spread.completed)) * 1000),
        eventLoopMsPer1000: Math.round((eventLoopMs / Math.max(1, spread.completed)) * 1000),
        mainThreadCpuMsPer1000: mainMs === null ? null : Math.round((mainMs / Math.max(1, spread.completed)) * 1000),
        bare: await pacedLoadInProcess({ url: bare.url, paths: ['/'], ratePerSecond, seconds, connections: 50 }),
      });
    }

    const extras = (options.extras ?? process.env.API_SPREAD_EXTRAS !== '0') ? await measureExtras() : null;
    const loadAverage: [number, number] = [loadAtStart, os.loadavg()[0]!];
    const stats = reads.stats();
    return {
      scale,
      markets,
      stocks: stocks.length,
      currentRowsRead: stats.currentRowsRead,
      filesCopied: stats.servingSync?.filesCopied ?? 0,
      openSeconds,
      prerendered,
      rssMiB,
      runs,
      extras,
      loadAverage,
    };
  } finally {
    await bare.close();
    await reads.close();
    await closeAccess();
  }
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

/** The figures as printed lines. */
export function formatApiSpreadBench(f: SpreadBenchFigures): string[] {
  const load = (p: PacedLoadFigures) =>
    `p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms, errors ${p.errors} of ${p.sent} (${statusText(p)})`;
  return [
    `[api-spread] lake: sample scale ${f.scale}, markets ${f.markets.join(',')}: ${f.stocks} stocks with a full current result`,
    `[api-spread] reads open in ${f.openSeconds.toFixed(1)} s (${f.currentRowsRead} current rows read from the serving store, ` +
      `${f.filesCopied} lake files copied into it first); RSS ${f.rssMiB} MiB; ${f.prerendered.reports} default reports ` +
      `pre-rendered into the store in ${f.prerendered.seconds.toFixed(1)} s before the runs`,
    `[api-spread] machine load average (1 min) ${f.loadAverage[0].toFixed(1)} at the first run, ${f.loadAverage[1].toFixed(1)} at ` +
      `the last (other work on the machine skews every figure)`,
    ...f.runs.flatMap((r) => [
      `[api-spread] spread (each request a different ticker, caches cold), ${DEFAULT_RENDER_THREADS} render threads, paced at ${r.ratePerSecond} ` +
        `req/s: ${load(r.spread)}; API CPU ${r.cpuMsPer1000} ms (event-loop thread ` +
        `${r.mainThreadCpuMsPer1000 ?? 'n/a'} ms, loop busy ${r.eventLoopMsPer1000} ms) per 1,000 requests ` +
        `(target: 0 errors)`,
      `[api-spread]   API process during the run: ${formatTail(r.tail)}` +
        (r.render
          ? `; render thread queue wait p50 ${r.render.wait.p50Ms} / p99 ${r.render.wait.p99Ms} / max ${r.render.wait.maxMs} ms, ` +
            `run p50 ${r.render.run.p50Ms} / p99 ${r.render.run.p99Ms} / max ${r.render.run.maxMs} ms`
          : ''),
      `[api-spread]   bare Koa route, same body from memory, at ${r.ratePerSecond} req/s: ${load(r.bare)} (control)`,
    ]),
    ...(f.extras ? formatExtras(f.extras) : []),
  ];
}

function formatExtras(f: SpreadExtras): string[] {
  const load = (p: PacedLoadFigures) =>
    `p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms, errors ${p.errors} of ${p.sent} (${statusText(p)})`;
  return [
    `[api-spread] hot ticker (one ticker again and again: the report cache answers), paced at ${f.hot.ratePerSecond} req/s: ${load(f.hot)} (comparison only)`,
    `[api-spread] batch of 100 distinct cold tickers × ${f.batches.batches}: p50 ${f.batches.p50Ms} ms, max ${f.batches.maxMs} ms, ` +
      `results per batch ${[...new Set(f.batches.resultCounts)].join('/')}, errors ${f.batches.errors}, API CPU ${f.batches.cpuMsPerBatch} ms ` +
      'per batch (target < 150 ms, 100 results)',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const text of formatApiSpreadBench(await runApiSpreadBench())) console.log(text);
}
