/**
 * SQLite (libsql) against LMDB (`lmdb`) as the serving store's embedded engine, in one run on the
 * same synthetic month-end history: a backfill's bulk write (chunks of 166 tickers × every date,
 * one transaction each), size on disk, then in a fresh process per engine (caches cold but the
 * OS page cache) as_of, current row, a ticker's history and one US day, RSS, and as_of while a
 * second process writes. SERVING_BENCH_TICKERS (default 20,000) × SERVING_BENCH_DATES (100) rows;
 * SERVING_BENCH_ENGINES (default `sqlite,lmdb`) sets which and in what order.
 * Run with `npx tsx bench/serving-engines.bench.ts`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describeMachine } from './machine.ts';
import { CHUNK_TICKERS, RESULT_BYTES, chunkRows, monthEnds, shapeFromEnv } from './serving-engines-data.ts';
import type { Latency, ReaderFigures } from './serving-engines-reader.ts';
import { sqlitePragmas } from './serving-engines-sqlite.ts';
import { ENGINES, openStore, storeBytes, type EngineName } from './serving-engines-store.ts';

const READER = fileURLToPath(new URL('./serving-engines-reader.ts', import.meta.url));

export interface EngineFigures {
  writeSeconds: number;
  /** CPU seconds of the write calls; on a shared machine a steadier figure than the wall time. */
  writeCpuSeconds: number;
  rowsPerSecond: number;
  diskMiB: number;
  reads: ReaderFigures;
}

export interface ServingEnginesFigures {
  tickers: number;
  dates: number;
  rows: number;
  resultBytes: number;
  loadBefore: number;
  loadAfter: number;
  /** SQLite's plan for the as_of and day-of-a-market reads. */
  sqlitePlans: string[];
  engines: Partial<Record<EngineName, EngineFigures>>;
}

/** Wall and CPU seconds (every thread of this process) spent in the engine's write calls and close. */
function bulkWrite(engine: EngineName, dir: string, plans: string[]): { wall: number; cpu: number } {
  const shape = shapeFromEnv();
  const dates = monthEnds(shape.dates);
  const store = openStore(engine, dir);
  let micros = 0;
  let cpuMicros = 0;
  const timed = (work: () => void) => {
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    work();
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
    micros += Number(process.hrtime.bigint() - started) / 1e3;
  };
  for (let first = 0; first < shape.tickers; first += CHUNK_TICKERS) {
    const rows = chunkRows(first, shape, dates); // generating is not the engine's time
    timed(() => store.write(rows));
  }
  if (store.plan) {
    const asOf = `SELECT * FROM history WHERE market = 'us' AND ticker = 'T0000' AND snapshot_date <= '2012-01-01' ORDER BY snapshot_date DESC LIMIT 1`;
    plans.push(store.plan(asOf));
    plans.push(store.plan(`SELECT * FROM history WHERE market = 'us' AND snapshot_date = '2012-01-31' ORDER BY ticker`));
  }
  timed(() => store.close()); // SQLite checkpoints its WAL into the file here
  return { wall: micros / 1e6, cpu: cpuMicros / 1e6 };
}

function readInChild(engine: EngineName, dir: string): Promise<ReaderFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', READER, engine, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as ReaderFigures)
        : reject(new Error(`reader ${engine} exited ${code}`)),
    );
  });
}

export async function runServingEnginesBench(): Promise<ServingEnginesFigures> {
  const shape = shapeFromEnv();
  const engines = (process.env.SERVING_BENCH_ENGINES ?? ENGINES.join(',')).split(',') as EngineName[];
  const figures: ServingEnginesFigures = {
    ...shape,
    rows: shape.tickers * shape.dates,
    resultBytes: RESULT_BYTES,
    loadBefore: os.loadavg()[0]!,
    loadAfter: 0,
    sqlitePlans: [],
    engines: {},
  };
  const root = mkdtempSync(path.join(os.tmpdir(), 'serving-engines-'));
  try {
    const written: Array<[EngineName, string, { wall: number; cpu: number }]> = [];
    for (const engine of engines) {
      const dir = mkdtempSync(path.join(root, `${engine}-`));
      written.push([engine, dir, bulkWrite(engine, dir, figures.sqlitePlans)]);
    }
    for (const [engine, dir, write] of written) {
      const diskMiB = storeBytes(engine, dir) / 2 ** 20;
      const reads = await readInChild(engine, dir);
      figures.engines[engine] = {
        writeSeconds: write.wall,
        writeCpuSeconds: write.cpu,
        rowsPerSecond: figures.rows / write.wall,
        diskMiB,
        reads,
      };
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  figures.loadAfter = os.loadavg()[0]!;
  return figures;
}

function sqliteVariant(): string {
  const parts = [...sqlitePragmas()];
  return parts.length === 0 ? '' : `; SQLite with ${parts.join(', ')}`;
}

export function formatServingEnginesBench(f: ServingEnginesFigures): string[] {
  const s = f.engines.sqlite;
  const l = f.engines.lmdb;
  const lines = [
    `[serving engines] synthetic: ${f.tickers} tickers × ${f.dates} month ends = ${f.rows} rows, results ${f.resultBytes} B ` +
      `(deflated JSON)${sqliteVariant()}; load average ${f.loadBefore.toFixed(1)} → ${f.loadAfter.toFixed(1)}`,
    '| measure | SQLite (libsql) | LMDB (lmdb) | LMDB/SQLite |',
    '|---|---:|---:|---:|',
  ];
  const row = (name: string, pick: (e: EngineFigures) => number, digits = 0) => {
    const a = s ? pick(s) : undefined;
    const b = l ? pick(l) : undefined;
    const show = (x: number | undefined) => (x === undefined ? '—' : x.toLocaleString('en-US', { maximumFractionDigits: digits }));
    const ratio = a !== undefined && b !== undefined && a > 0 ? (b / a).toFixed(2) : '—';
    lines.push(`| ${name} | ${show(a)} | ${show(b)} | ${ratio} |`);
  };
  const latencyRows = (name: string, pick: (e: EngineFigures) => Latency, unit: 'µs' | 'ms' = 'µs') => {
    const scale = unit === 'ms' ? 1e-3 : 1;
    row(`${name} p50, ${unit}`, (e) => pick(e).p50Us * scale, unit === 'ms' ? 1 : 0);
    row(`${name} p99, ${unit}`, (e) => pick(e).p99Us * scale, unit === 'ms' ? 1 : 0);
  };
  const reads = s?.reads ?? l?.reads;
  row('bulk write, s', (e) => e.writeSeconds, 1);
  row('bulk write, CPU s', (e) => e.writeCpuSeconds, 1);
  row('bulk write, rows/s', (e) => e.rowsPerSecond);
  row('on disk, MiB', (e) => e.diskMiB);
  row('open in a fresh process, ms', (e) => e.reads.openMs, 1);
  latencyRows(`as_of (${reads?.asOf.count ?? 0} random ticker × day)`, (e) => e.reads.asOf);
  latencyRows('current row', (e) => e.reads.current);
  latencyRows(`history of a ticker (${f.dates} rows, ${reads?.history.count ?? 0} tickers)`, (e) => e.reads.history);
  latencyRows(`one US day (${reads?.marketDay.rows ?? 0} rows, ${reads?.marketDay.count ?? 0} days)`, (e) => e.reads.marketDay, 'ms');
  row('RSS after the reads, MiB', (e) => e.reads.rssMiB);
  row('… of it anonymous (the process’s own), MiB', (e) => e.reads.rssAnonMiB ?? Number.NaN);
  row('… of it mapped file pages, MiB', (e) => e.reads.rssFileMiB ?? Number.NaN);
  latencyRows('as_of while a process writes', (e) => e.reads.duringWrites);
  row('as_of while a process writes, max, µs', (e) => e.reads.duringWrites.maxUs);
  row('writer beside the reads, rows/s', (e) => e.reads.duringWrites.writer.rows / e.reads.duringWrites.writer.seconds);
  row("writer's longest chunk transaction, ms", (e) => e.reads.duringWrites.writer.maxChunkMs);
  for (const plan of f.sqlitePlans) lines.push(`SQLite plan: ${plan}`);
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(describeMachine());
  for (const line of formatServingEnginesBench(await runServingEnginesBench())) console.log(line);
}
