/**
 * The read half of bench/serving-engines.bench.ts, in a process of its own so that its caches
 * start cold (only the OS page cache is warm) and its RSS is one engine's: as_of, current row,
 * a ticker's history and one day of a market, then as_of again while a second process writes
 * (bench/serving-engines-writer.ts). Prints its figures as one JSON line.
 * Run as `node --import tsx bench/serving-engines-reader.ts <engine> <dir>`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { marketOf, monthEnds, random, randomLookups, shapeFromEnv, type Lookup } from './serving-engines-data.ts';
import { openStore, type BenchStore, type EngineName } from './serving-engines-store.ts';
import type { WriterFigures } from './serving-engines-writer.ts';

export interface Latency {
  count: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

export interface ReaderFigures {
  openMs: number;
  asOf: Latency;
  current: Latency;
  history: Latency;
  marketDay: Latency & { rows: number };
  rssMiB: number;
  /** RSS split (Linux): the process's own memory, and file pages mapped into it (LMDB's map; page cache, reclaimable). */
  rssAnonMiB: number | null;
  rssFileMiB: number | null;
  duringWrites: Latency & { writer: WriterFigures };
}

const READS = Number(process.env.SERVING_BENCH_READS ?? 20_000);
const HISTORY_READS = Math.ceil(READS / 10);
const MARKET_DAYS = 30;
const WRITE_SECONDS = Number(process.env.SERVING_BENCH_WRITE_SECONDS ?? 15);
const WRITER = fileURLToPath(new URL('./serving-engines-writer.ts', import.meta.url));

function rssPartMiB(field: 'RssAnon' | 'RssFile'): number | null {
  try {
    const line = readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line === undefined ? null : Number(line.split(/\s+/)[1]) / 1024;
  } catch {
    return null;
  }
}

function latency(micros: number[]): Latency {
  const sorted = [...micros].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { count: sorted.length, p50Us: at(0.5), p99Us: at(0.99), maxUs: sorted.at(-1)! };
}

/** Times each call, µs; `check` fails the run when an engine answers something else. */
function timeEach<T>(items: readonly T[], read: (item: T) => unknown, check: (answer: unknown, item: T) => boolean): number[] {
  const micros: number[] = [];
  for (const item of items) {
    const started = process.hrtime.bigint();
    const answer = read(item);
    micros.push(Number(process.hrtime.bigint() - started) / 1e3);
    if (!check(answer, item)) throw new Error(`wrong answer for ${JSON.stringify(item)}`);
  }
  return micros;
}

/** as_of reads while a second process rewrites backfill chunks, yielding every 100 reads as a server would. */
async function readWhileWriting(engine: EngineName, dir: string, store: BenchStore, lookups: Lookup[]) {
  const writer = spawn(process.execPath, ['--import', 'tsx', WRITER, engine, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: writer.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  if ((await iterator.next()).value !== 'ready') throw new Error('the writer did not start');
  const micros: number[] = [];
  const deadline = performance.now() + WRITE_SECONDS * 1000;
  for (let i = 0; performance.now() < deadline; i += 100) {
    const batch = Array.from({ length: 100 }, (_, k) => lookups[(i + k) % lookups.length]!);
    micros.push(
      ...timeEach(
        batch,
        (l) => store.asOf(l.market, l.ticker, l.date),
        (row) => row !== undefined,
      ),
    );
    await nextTurn();
  }
  const exited = once(writer, 'exit');
  writer.kill('SIGTERM');
  const last = await iterator.next();
  await exited;
  return { ...latency(micros), writer: JSON.parse(String(last.value)) as WriterFigures };
}

async function main() {
  const [engine, dir] = process.argv.slice(2) as [EngineName, string];
  const shape = shapeFromEnv();
  const dates = monthEnds(shape.dates);
  const opened = performance.now();
  const store = openStore(engine, dir);
  const openMs = performance.now() - opened;

  const lookups = randomLookups(READS, shape, dates, 11);
  const asOf = timeEach(
    lookups,
    (l) => store.asOf(l.market, l.ticker, l.date),
    (row, l) => row !== undefined && (row as { snapshotDate: string }).snapshotDate <= l.date,
  );
  const tickers = randomLookups(READS, shape, dates, 12);
  const newest = dates.at(-1)!;
  const current = timeEach(
    tickers,
    (l) => store.current(l.market, l.ticker),
    (row) => (row as { snapshotDate: string } | undefined)?.snapshotDate === newest,
  );
  const history = timeEach(
    tickers.slice(0, HISTORY_READS),
    (l) => store.history(l.market, l.ticker),
    (rows) => (rows as unknown[]).length === dates.length,
  );
  const next = random(13);
  const days = Array.from({ length: MARKET_DAYS }, () => dates[Math.floor(next() * dates.length)]!);
  const usTickers = Array.from({ length: shape.tickers }, (_, t) => marketOf(t)).filter((m) => m === 'us').length;
  const marketDay = timeEach(
    days,
    (date) => store.marketOn('us', date),
    (rows) => (rows as unknown[]).length === usTickers,
  );
  const rssMiB = process.memoryUsage().rss / 2 ** 20;
  const rssAnonMiB = rssPartMiB('RssAnon');
  const rssFileMiB = rssPartMiB('RssFile');
  const duringWrites = await readWhileWriting(engine, dir, store, randomLookups(READS, shape, dates, 14));
  store.close();
  const figures: ReaderFigures = {
    openMs,
    asOf: latency(asOf),
    current: latency(current),
    history: latency(history),
    marketDay: { ...latency(marketDay), rows: usTickers },
    rssMiB,
    rssAnonMiB,
    rssFileMiB,
    duringWrites,
  };
  console.log(JSON.stringify(figures));
}

await main();
