/**
 * as_of benchmark (`npx tsx bench/api-asof.bench.ts`): GET /api/screen/{market}/{ticker}?as_of=…
 * spread over many tickers and random days of the whole history, served by **this checkout**
 * (older snapshots from the serving store, docs/serving.md "The serving store") and, when
 * ASOF_BENCH_BASELINE names the root of an older checkout, by **that checkout** (its history
 * index), in the same run on the same lake, each beside a bare node `http` route answering the
 * same body, at ASOF_BENCH_RATES (default 500 and 1,000 req/s). Open loop: the paced generator
 * (bench/paced-load.ts) in a process of its own; each API in another (this checkout's
 * bench/api-asof-child.ts, the baseline's own api-asof-child.ts in mode `index`), so its RSS
 * and CPU time are its own.
 *
 * Data: **synthetic** month-end snapshots from 2009-01-31 (the generator of
 * bench/api-history.bench.ts: real Parquet files, one per market and date, not screened by the
 * engine, published through the lake writer, which also writes this checkout's serving store)
 * for ASOF_BENCH_TICKERS tickers (default 20,000) over 20 markets. ASOF_BENCH_SIZES picks
 * fractions of the history (default `1`, all of it; a fraction is the newest dates). The
 * baseline runs on a copy of the lake without the store (its `api-cache/` apart). Each size:
 * - this checkout's first start (no saved verdicts; the store already holds every file);
 * - the baseline's first start (no saved verdicts, no index: ready, then the index built);
 * - a restart of each: as_of alone without HTTP, then the paced loads;
 * - each one's event-loop delay over ASOF_BENCH_IDLE_SECONDS (default 10) with nothing
 *   published (bench/api-idle-loop-child.ts);
 * - this checkout's first start after an upgrade: serving.db deleted, so the start copies every
 *   lake file into the store (the store's build time).
 */
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { cp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { MARKET_KEYS } from '../common/markets.ts';
import { dayNumber } from '../engine/dates.ts';
import { dayString } from '../reads/api-reads-store.ts';
import { growHistory } from './api-history.bench.ts';
import { formatApiAsOfBench, type AsOfRun, type AsOfSizeFigures, type AsOfStart, type IdleLoop, type Loaded } from './api-asof-format.ts';
import { describeMachine } from './machine.ts';
import { pacedLoadInProcess } from './paced-load.ts';

export { formatApiAsOfBench } from './api-asof-format.ts';

const CODE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MARKETS = MARKET_KEYS.slice(0, 20);

/** The first line a child prints once it serves. */
interface Served {
  url: string;
  bareUrl: string;
  key: string;
  readySeconds: number;
  builtSeconds: number;
  rssAtReadyMiB: number;
  rssBuiltMiB: number;
  lookup: AsOfStart['lookup'];
  servingSync?: AsOfStart['servingSync'];
}

/** Which code serves: this checkout's child, or the baseline's own child in its history-index mode. */
interface Checkout {
  root: string;
  args(dataDir: string, sample: string, lookups: Array<[string, string, string]>): string[];
}

const THIS_CHECKOUT: Checkout = {
  root: CODE_ROOT,
  args: (dataDir, sample, lookups) => [path.join(CODE_ROOT, 'bench', 'api-asof-child.ts'), dataDir, sample, JSON.stringify(lookups)],
};

function baselineCheckout(root: string): Checkout {
  return {
    root,
    args: (dataDir, sample, lookups) => [path.join(root, 'bench', 'api-asof-child.ts'), dataDir, 'index', sample, JSON.stringify(lookups)],
  };
}

/** A child API process and a line reader over its stdout. */
class Child {
  private readonly lines: AsyncIterator<string>;

  constructor(private readonly process: ChildProcessByStdio<Writable, Readable, null>) {
    this.lines = createInterface({ input: process.stdout })[Symbol.asyncIterator]();
  }

  static start(checkout: Checkout, args: string[]): Child {
    return new Child(
      spawn(process.execPath, ['--expose-gc', '--import', 'tsx', ...args], { cwd: checkout.root, stdio: ['pipe', 'pipe', 'inherit'] }),
    );
  }

  /** Resolves when the process has exited (a baseline checkout saves its checkpoint after its last line). */
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

/** Starts `checkout` over `dataDir`, runs `work` once it serves, and collects its figures. */
async function startAndMeasure(
  checkout: Checkout,
  dataDir: string,
  sample: string,
  lookups: Array<[string, string, string]>,
  work: (child: Child, served: Served) => Promise<AsOfRun[]>,
): Promise<Loaded> {
  const child = Child.start(checkout, checkout.args(dataDir, sample, lookups));
  const served = await child.next<Served>();
  const runs = await work(child, served);
  const end = await child.next<{ maxRssMiB: number; historyQueries: number; historyIndex: { builderMaxRssMiB: number } | null }>('exit');
  await child.exited();
  const { readySeconds, builtSeconds, rssAtReadyMiB, rssBuiltMiB, lookup } = served;
  const start: AsOfStart = {
    readySeconds,
    builtSeconds,
    rssAtReadyMiB,
    rssBuiltMiB,
    maxRssMiB: end.maxRssMiB,
    builderMaxRssMiB: end.historyIndex?.builderMaxRssMiB ?? 0,
    servingSync: served.servingSync ?? null,
    lookup,
  };
  return { start, runs, historyReads: end.historyQueries };
}

/** The event loop of `checkout`'s reads with nothing published (bench/api-idle-loop-child.ts). */
function idleLoop(checkout: Checkout, dataDir: string, seconds: number): IdleLoop {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(CODE_ROOT, 'bench', 'api-idle-loop-child.ts'), dataDir, checkout.root, String(seconds)],
    { cwd: checkout.root, encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
  );
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !line.startsWith('{'))
    throw new Error(`idle reads process failed (${child.status}): ${child.stderr.slice(-2000)}`);
  return JSON.parse(line) as IdleLoop;
}

async function bytesUnder(dir: string, match: (name: string) => boolean = () => true): Promise<number | null> {
  const names = await readdir(dir).catch(() => null);
  if (!names) return null;
  let total = 0;
  for (const name of names.filter(match)) total += (await stat(path.join(dir, name))).size;
  return total;
}

const isServingDb = (name: string) => /^serving\.db(-wal|-shm)?$/.test(name);
/** Each phase's figures on stderr as soon as measured (a long run stopped early keeps what it measured). */
function progress<T>(phase: string, figures: T): T {
  console.error(
    `[api-asof] ${new Date().toISOString()} ${phase} (load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}): ${JSON.stringify(figures)}`,
  );
  return figures;
}

const loadAverage = () => os.loadavg().map((l) => Number(l.toFixed(1))) as [number, number, number];

/** Runs every size; `onSize` gets each size's figures as soon as they are measured. */
export async function runApiAsOfBench(onSize: (size: AsOfSizeFigures) => void = () => undefined): Promise<AsOfSizeFigures[]> {
  const tickers = Number(process.env.ASOF_BENCH_TICKERS ?? 20_000);
  const fractions = (process.env.ASOF_BENCH_SIZES ?? '1').split(',').map(Number);
  const seconds = Number(process.env.ASOF_BENCH_SECONDS ?? 5);
  const rates = (process.env.ASOF_BENCH_RATES ?? '500,1000').split(',').map(Number);
  const idleSeconds = Number(process.env.ASOF_BENCH_IDLE_SECONDS ?? 10);
  const baselineRoot = process.env.ASOF_BENCH_BASELINE ? path.resolve(process.env.ASOF_BENCH_BASELINE) : null;
  const baseline = baselineRoot ? baselineCheckout(baselineRoot) : null;
  const root = path.join(process.env.ASOF_BENCH_DIR ?? os.tmpdir(), `faithscreen-asof-bench-${process.pid}`);
  const lake = path.join(root, 'serving');
  const baselineLake = path.join(root, 'baseline');
  const out: AsOfSizeFigures[] = [];
  try {
    for await (const { fraction, dates, snapshots, perMarket, files, writeSeconds } of growHistory(lake, {
      tickers,
      fractions,
      markets: MARKETS,
    })) {
      const loadAtStart = loadAverage();
      progress('lake written', { fraction, dates: dates.length, snapshots, files, writeSeconds });
      const sample = `/api/screen/${MARKETS[0]}/S00000?as_of=${dates[Math.floor(dates.length / 2)]}`;
      // The lookups alone: the same spread as the HTTP load, as (market, ticker, day).
      const lookups = asOfPaths(1_000, 7, perMarket, dates[0]!).map((p) => {
        const [, market, ticker, day] = /^\/api\/screen\/([^/]+)\/([^?]+)\?as_of=(.+)$/.exec(p)!;
        return [market!, ticker!, day!] as [string, string, string];
      });
      const servingBytes = (await bytesUnder(lake, isServingDb)) ?? 0;
      await rm(path.join(lake, 'api-cache'), { recursive: true, force: true });
      if (baseline) {
        // The same lake for the baseline, without the store and with an api-cache/ of its own.
        await rm(baselineLake, { recursive: true, force: true });
        await cp(lake, baselineLake, {
          recursive: true,
          preserveTimestamps: true,
          filter: (source) => !isServingDb(path.basename(source)),
        });
      }
      const noWork = async (): Promise<AsOfRun[]> => [];
      const firstStart = progress('serving first start', (await startAndMeasure(THIS_CHECKOUT, lake, sample, [], noWork)).start);
      const baselineFirst = baseline
        ? progress('baseline first start', (await startAndMeasure(baseline, baselineLake, sample, [], noWork)).start)
        : null;
      const indexBytes = baseline ? await bytesUnder(path.join(baselineLake, 'api-cache', 'history')) : null;
      const work = (child: Child, served: Served) => loads(child, served, rates, seconds, perMarket, dates[0]!);
      const loaded = progress('serving loads', await startAndMeasure(THIS_CHECKOUT, lake, sample, lookups, work));
      const baselineLoaded = baseline
        ? progress('baseline loads', await startAndMeasure(baseline, baselineLake, sample, lookups, work))
        : null;
      const idleLoopFigures = progress('serving idle', idleLoop(THIS_CHECKOUT, lake, idleSeconds));
      const baselineIdle = baseline ? progress('baseline idle', idleLoop(baseline, baselineLake, idleSeconds)) : null;
      // The upgrade path: a lake with no store (and no saved verdicts): the start builds the store from every file.
      for (const name of (await readdir(lake)).filter(isServingDb)) await rm(path.join(lake, name));
      await rm(path.join(lake, 'api-cache'), { recursive: true, force: true });
      const upgradeStart = progress('serving upgrade start', (await startAndMeasure(THIS_CHECKOUT, lake, sample, [], noWork)).start);
      const size: AsOfSizeFigures = {
        fraction,
        dates: dates.length,
        snapshots,
        files,
        writeSeconds,
        loadAverage: { atStart: loadAtStart, atEnd: loadAverage() },
        serving: { servingBytes, firstStart, upgradeStart, loaded, idle: idleLoopFigures },
        baseline:
          baseline && baselineFirst && baselineLoaded && baselineIdle
            ? { root: baseline.root, indexBytes, firstStart: baselineFirst, loaded: baselineLoaded, idle: baselineIdle }
            : null,
      };
      await rm(baselineLake, { recursive: true, force: true });
      out.push(size);
      onSize(size);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  await runApiAsOfBench((size) => {
    for (const line of formatApiAsOfBench([size])) console.log(line);
  });
}
