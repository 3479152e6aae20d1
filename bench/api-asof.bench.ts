/**
 * as_of benchmark (`npx tsx bench/api-asof.bench.ts`): GET /api/screen/{market}/{ticker}?as_of=…
 * spread over many tickers and random days of the whole history, with the history index
 * (docs/serving.md, "as_of from the history index") and without it (every older snapshot read from
 * the Parquet files), beside a bare node `http` route answering the same body, at 500, 1,000
 * and 2,000 req/s. Open loop: the paced generator (bench/paced-load.ts) in a process of its own;
 * the API in another (bench/api-asof-child.ts), so its RSS and CPU time are its own.
 *
 * Data: **synthetic** month-end snapshots from 2009-01-31 (the generator of
 * bench/api-history.bench.ts: real Parquet files, one per market and date, not screened by the
 * engine) for ASOF_BENCH_TICKERS tickers (default 20,000) over 20 markets. ASOF_BENCH_SIZES picks
 * fractions of the history (default `0.25,1`, the quarter being the newest dates). Each size:
 * a first start (no checkpoint, no index: time to ready and to a built index), then a restart
 * with the index (loads) and one without it (loads at ASOF_BENCH_LAKE_RATES, default 500 req/s:
 * above, the lake path only queues).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { MARKET_KEYS } from '../common/markets.ts';
import { dayNumber } from '../engine/dates.ts';
import { dayString } from '../warehouse/api-reads/api-reads-store.ts';
import { growHistory } from './api-history.bench.ts';
import { describeMachine } from './machine.ts';
import { pacedLoadInProcess, type PacedLoadFigures } from './paced-load.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MARKETS = MARKET_KEYS.slice(0, 20);
export const ASOF_RATES = [500, 1_000, 2_000];

interface Served {
  url: string;
  bareUrl: string;
  key: string;
  readySeconds: number;
  builtSeconds: number;
  rssAtReadyMiB: number;
  rssBuiltMiB: number;
  /** `ApiReads.asOf` alone, sequential calls without HTTP. */
  lookup: { count: number; p50Ms: number; p99Ms: number; cpuMsPer1000: number };
}

export interface AsOfRun {
  ratePerSecond: number;
  asOf: PacedLoadFigures;
  /** CPU time of the API process (all threads) per 1,000 as_of requests, ms. */
  cpuMsPer1000: number;
  bare: PacedLoadFigures;
}

export interface AsOfStart {
  readySeconds: number;
  /** From start until the index (and the result sidecars) are built. */
  builtSeconds: number;
  rssAtReadyMiB: number;
  rssBuiltMiB: number;
  maxRssMiB: number;
  /** Peak RSS of the history index's builder process (its memory, not the API's); 0 when nothing was built. */
  builderMaxRssMiB: number;
  lookup: Served['lookup'];
}

export interface AsOfSizeFigures {
  fraction: number;
  dates: number;
  snapshots: number;
  files: number;
  writeSeconds: number;
  indexBytes: number | null;
  firstStart: AsOfStart;
  /** Null with ASOF_BENCH_FIRST_START_ONLY=1. */
  indexed: { start: AsOfStart; runs: AsOfRun[]; historyQueries: number } | null;
  lake: { start: AsOfStart; runs: AsOfRun[]; historyQueries: number } | null;
}

/** A child API process and a line reader over its stdout. */
class Child {
  private readonly lines: AsyncIterator<string>;

  constructor(private readonly process: ChildProcessByStdio<Writable, Readable, null>) {
    this.lines = createInterface({ input: process.stdout })[Symbol.asyncIterator]();
  }

  static start(dataDir: string, mode: 'index' | 'lake', sample: string, lookups: Array<[string, string, string]>): Child {
    return new Child(
      spawn(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', path.join(HERE, 'api-asof-child.ts'), dataDir, mode, sample, JSON.stringify(lookups)],
        {
          stdio: ['pipe', 'pipe', 'inherit'],
        },
      ),
    );
  }

  /** Resolves when the process has exited (it saves its checkpoint after its last line). */
  exited(): Promise<void> {
    return this.process.exitCode !== null ? Promise.resolve() : new Promise((resolve) => this.process.once('exit', () => resolve()));
  }

  async next<T>(command?: string): Promise<T> {
    if (command) this.process.stdin.write(`${command}\n`);
    const line = await this.lines.next();
    if (line.done) throw new Error('API process ended early');
    return JSON.parse(line.value) as T;
  }
}

function mix(a: number, b: number): number {
  let h = (a * 0x9e3779b1) ^ (b * 0x85ebca77);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

/** `count` as_of paths, each a random ticker of a random market on a random day from the first history date to yesterday. */
function asOfPaths(count: number, seed: number, perMarket: number, firstDate: string): string[] {
  const first = dayNumber(firstDate);
  const span = dayNumber(new Date().toISOString().slice(0, 10)) - first;
  return Array.from({ length: count }, (_, i) => {
    const h = mix(i, seed);
    const ticker = `S${String(mix(i, seed + 1) % perMarket).padStart(5, '0')}`;
    return `/api/screen/${MARKETS[h % MARKETS.length]}/${ticker}?as_of=${dayString(first + (mix(i, seed + 2) % span))}`;
  });
}

async function loads(
  child: Child,
  served: Served,
  rates: number[],
  seconds: number,
  perMarket: number,
  firstDate: string,
): Promise<AsOfRun[]> {
  const headers = { 'X-API-Key': served.key };
  // Warm-up: first connections and first runs of the code, on other tickers.
  await pacedLoadInProcess({ url: served.url, paths: asOfPaths(400, 99, perMarket, firstDate), headers, ratePerSecond: 200, seconds: 2 });
  await pacedLoadInProcess({ url: served.bareUrl, paths: ['/'], ratePerSecond: 200, seconds: 2 });
  const runs: AsOfRun[] = [];
  for (const ratePerSecond of rates) {
    const before = await child.next<{ cpuMs: number }>('cpu');
    const asOf = await pacedLoadInProcess({
      url: served.url,
      paths: asOfPaths(ratePerSecond * seconds, ratePerSecond, perMarket, firstDate),
      headers,
      ratePerSecond,
      seconds,
      connections: 50,
    });
    const after = await child.next<{ cpuMs: number }>('cpu');
    const bare = await pacedLoadInProcess({ url: served.bareUrl, paths: ['/'], ratePerSecond, seconds, connections: 50 });
    runs.push({ ratePerSecond, asOf, cpuMsPer1000: Math.round(((after.cpuMs - before.cpuMs) / Math.max(1, asOf.completed)) * 1000), bare });
  }
  return runs;
}

async function startAndMeasure(
  dataDir: string,
  mode: 'index' | 'lake',
  sample: string,
  lookups: Array<[string, string, string]>,
  work: (child: Child, served: Served) => Promise<AsOfRun[]>,
): Promise<{ start: AsOfStart; runs: AsOfRun[]; historyQueries: number }> {
  const child = Child.start(dataDir, mode, sample, lookups);
  const served = await child.next<Served>();
  const runs = await work(child, served);
  const end = await child.next<{ maxRssMiB: number; historyQueries: number; historyIndex: { builderMaxRssMiB: number } | null }>('exit');
  await child.exited();
  const { readySeconds, builtSeconds, rssAtReadyMiB, rssBuiltMiB, lookup } = served;
  return {
    start: {
      readySeconds,
      builtSeconds,
      rssAtReadyMiB,
      rssBuiltMiB,
      maxRssMiB: end.maxRssMiB,
      builderMaxRssMiB: end.historyIndex?.builderMaxRssMiB ?? 0,
      lookup,
    },
    runs,
    historyQueries: end.historyQueries,
  };
}

async function folderBytes(dir: string): Promise<number | null> {
  const { readdir, stat } = await import('node:fs/promises');
  const names = await readdir(dir).catch(() => null);
  if (!names) return null;
  let total = 0;
  for (const name of names) total += (await stat(path.join(dir, name))).size;
  return total;
}

/** Runs every size; `onSize` gets each size's figures as soon as they are measured. */
export async function runApiAsOfBench(onSize: (size: AsOfSizeFigures) => void = () => undefined): Promise<AsOfSizeFigures[]> {
  const tickers = Number(process.env.ASOF_BENCH_TICKERS ?? 20_000);
  const fractions = (process.env.ASOF_BENCH_SIZES ?? '0.25,1').split(',').map(Number);
  const seconds = Number(process.env.ASOF_BENCH_SECONDS ?? 5);
  const lakeRates = (process.env.ASOF_BENCH_LAKE_RATES ?? '500').split(',').map(Number);
  // Only the first start (ready, index built, RSS of the API and of the index builder): minutes instead of tens of minutes.
  const firstStartOnly = process.env.ASOF_BENCH_FIRST_START_ONLY === '1';
  const root = path.join(process.env.ASOF_BENCH_DIR ?? os.tmpdir(), `faithscreen-asof-bench-${process.pid}`);
  const out: AsOfSizeFigures[] = [];
  try {
    for await (const { fraction, dates, snapshots, perMarket, files, writeSeconds } of growHistory(root, {
      tickers,
      fractions,
      markets: MARKETS,
    })) {
      const sample = `/api/screen/${MARKETS[0]}/S00000?as_of=${dates[Math.floor(dates.length / 2)]}`;
      await rm(path.join(root, 'api-cache'), { recursive: true, force: true });
      // The lookups alone: the same spread as the HTTP load, as (market, ticker, day).
      const lookups = asOfPaths(1_000, 7, perMarket, dates[0]!).map((p) => {
        const [, market, ticker, day] = /^\/api\/screen\/([^/]+)\/([^?]+)\?as_of=(.+)$/.exec(p)!;
        return [market!, ticker!, day!] as [string, string, string];
      });
      const first = await startAndMeasure(root, 'index', sample, [], async () => []);
      const indexBytes = await folderBytes(path.join(root, 'api-cache', 'history'));
      const indexed = firstStartOnly
        ? null
        : await startAndMeasure(root, 'index', sample, lookups, (child, served) =>
            loads(child, served, ASOF_RATES, seconds, perMarket, dates[0]!),
          );
      const lake = firstStartOnly
        ? null
        : await startAndMeasure(root, 'lake', sample, lookups, (child, served) =>
            loads(child, served, lakeRates, seconds, perMarket, dates[0]!),
          );
      const size: AsOfSizeFigures = {
        fraction,
        dates: dates.length,
        snapshots,
        files,
        writeSeconds,
        indexBytes,
        firstStart: first.start,
        indexed,
        lake,
      };
      out.push(size);
      onSize(size);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return out;
}

export function formatApiAsOfBench(sizes: AsOfSizeFigures[]): string[] {
  const load = (f: PacedLoadFigures) =>
    `p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, max ${f.maxMs.toFixed(0)} ms, ${f.completed}/${f.sent} answered, ${f.errors} errors`;
  const start = (s: AsOfStart) =>
    `ready ${s.readySeconds.toFixed(1)} s (index and sidecars built at ${s.builtSeconds.toFixed(1)} s), RSS ${s.rssAtReadyMiB.toFixed(0)} MiB at ready / ` +
    `${s.rssBuiltMiB.toFixed(0)} MiB built / peak ${s.maxRssMiB.toFixed(0)} MiB` +
    (s.builderMaxRssMiB > 0 ? ` (index builder process, apart: peak ${s.builderMaxRssMiB.toFixed(0)} MiB)` : '') +
    (s.lookup.count > 0
      ? `; asOf() alone, ${s.lookup.count} sequential: p50 ${s.lookup.p50Ms.toFixed(2)} ms, p99 ${s.lookup.p99Ms.toFixed(2)} ms, ` +
        `CPU ${s.lookup.cpuMsPer1000.toFixed(0)} ms per 1,000`
      : '');
  const runs = (label: string, r: { start: AsOfStart; runs: AsOfRun[]; historyQueries: number } | null) =>
    r === null
      ? []
      : [
          `[api-asof]   ${label}: ${start(r.start)}; ${r.historyQueries} lake queries in all`,
          ...r.runs.map((run) => {
            const target = 3 * run.bare.p99Ms + 1;
            return (
              `[api-asof]     ${run.ratePerSecond} req/s: as_of ${load(run.asOf)}, CPU ${run.cpuMsPer1000} ms per 1,000; ` +
              `bare ${load(run.bare)}; target p99 ≤ ${target.toFixed(1)} ms: ${run.asOf.p99Ms <= target && run.asOf.errors === 0 ? 'met' : 'NOT met'}`
            );
          }),
        ];
  return sizes.flatMap((s) => [
    `[api-asof] SYNTHETIC lake, ${(s.fraction * 100).toFixed(0)} % of month-end history from 2009: ${s.dates} dates, ` +
      `${s.snapshots.toLocaleString('en')} snapshots in ${s.files.toLocaleString('en')} files (written in ${s.writeSeconds.toFixed(0)} s); ` +
      `history index ${s.indexBytes === null ? 'absent' : `${(s.indexBytes / 2 ** 20).toFixed(0)} MiB on disk`}`,
    `[api-asof]   first start (no checkpoint, no index): ${start(s.firstStart)}`,
    ...runs('restart, history index on', s.indexed),
    ...runs('restart, history index off (lake queries)', s.lake),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  await runApiAsOfBench((size) => {
    for (const line of formatApiAsOfBench([size])) console.log(line);
  });
}
