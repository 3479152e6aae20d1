/**
 * History-length benchmark (`npx tsx bench/api-history.bench.ts`): the API's memory and time to
 * ready, and as_of latency, against the length of history in the lake.
 *
 * Data: **synthetic** snapshots written straight through the pipelines' snapshot writer (real
 * Parquet files, one per (market, year) partition per date, as a backfill publishes them before
 * compaction), not screened by the engine: HISTORY_BENCH_TICKERS tickers (default 124,000, the
 * sample universe's size) over 20 markets, every month end from 2009-01-31, with generated
 * statuses and ratios and a small placeholder `result_json` (its size does not enter what is
 * measured: the API never holds results in memory). The full size is 216 month ends
 * (≈ 26.8 M snapshots); HISTORY_BENCH_SIZES picks which fractions of it run (default `0.25,1`,
 * the quarter being the newest quarter of the dates).
 *
 * Each size: a fresh API process opens the reads (what the API role does before it listens):
 * time to ready, RSS at ready and after the result sidecars are built, peak RSS, and as_of
 * lookups spread over tickers and dates. HISTORY_BENCH_BASELINE names the root of an older
 * checkout to measure beside (its reads held every snapshot in memory); it runs only at sizes
 * up to HISTORY_BENCH_BASELINE_MAX (default 0.25).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../warehouse/lake-schemas.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import { eraOf, type SnapshotRow, type SnapshotStatus } from '../warehouse/snapshot-schema.ts';
import { cadenceDates } from '../workflows/cadence.ts';
import { describeMachine } from './machine.ts';

const CODE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MARKETS = Array.from({ length: 20 }, (_, i) => `m${String(i).padStart(2, '0')}`);
const STATUSES: SnapshotStatus[] = ['compliant', 'non_compliant', 'questionable', 'insufficient_data'];
const RESULT_JSON = JSON.stringify({ synthetic: true, note: 'placeholder result of a benchmark-synthesized snapshot (bench/api-history.bench.ts)' });

export interface HistorySizeFigures {
  fraction: number;
  dates: number;
  snapshots: number;
  files: number;
  writeSeconds: number;
  current: ReadsFigures;
  baseline: ReadsFigures | null;
}

export interface ReadsFigures {
  readySeconds: number;
  sidecarsSeconds: number;
  rssAtReadyMiB: number;
  rssAfterMiB: number;
  maxRssMiB: number;
  heldSnapshots: number;
  snapshotFiles: number;
  asOf: { probes: number; found: number; p50Ms: number; p99Ms: number; maxMs: number };
}

/** A small deterministic hash, so every (ticker, date) gets the same synthetic figures each run. */
function mix(a: number, b: number): number {
  let h = (a * 0x9e3779b1) ^ (b * 0x85ebca77);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

function syntheticRow(market: string, index: number, date: string, dayIndex: number): SnapshotRow {
  const h = mix(index + MARKETS.indexOf(market) * 1_000_003, dayIndex);
  const row: Record<string, unknown> = {
    market,
    ticker: `S${String(index).padStart(5, '0')}`,
    snapshot_date: date,
    screened_at: `${date}T02:00:00.000`,
    source: 'backfill',
    run_id: 'history-bench',
    era: eraOf(date),
    engine_version: 'bench',
    filing_ref: null,
    period_end: null,
    price_date: date,
    result_json: RESULT_JSON,
    synthetic: true,
    data_source: 'sample',
  };
  SNAPSHOT_FRAMEWORKS.forEach((id, i) => (row[`${id}_status`] = STATUSES[(h >>> (2 * i)) & 3]));
  SNAPSHOT_RATIOS.forEach((r, i) => (row[r] = ((h >>> i) % 1000) / 1000));
  return row as SnapshotRow;
}

/** Writes `dates` × `tickers` synthetic snapshots; returns files written. */
async function synthesize(dataDir: string, dates: readonly string[], tickers: number, firstDayIndex: number): Promise<number> {
  const perMarket = Math.ceil(tickers / MARKETS.length);
  let files = 0;
  for (const [d, date] of dates.entries()) {
    const rows: SnapshotRow[] = [];
    for (const market of MARKETS) for (let i = 0; i < perMarket; i += 1) rows.push(syntheticRow(market, i, date, firstDayIndex + d));
    files += (await writeSnapshots(dataDir, rows, { fileStem: `history-bench-${date}`, threads: 2 })).files.length;
  }
  return files;
}

function measure(dataDir: string, codeRoot: string, probes: unknown[]): ReadsFigures {
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(CODE_ROOT, 'bench', 'api-history-child.ts'), dataDir, codeRoot, JSON.stringify(probes)], {
    cwd: codeRoot,
    encoding: 'utf8',
    maxBuffer: 16 * 2 ** 20,
  });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`reads process failed (${child.status}): ${child.stderr.slice(-2000)}`);
  return JSON.parse(line) as ReadsFigures;
}

export async function runApiHistoryBench(): Promise<HistorySizeFigures[]> {
  const tickers = Number(process.env.HISTORY_BENCH_TICKERS ?? 124_000);
  const fractions = (process.env.HISTORY_BENCH_SIZES ?? '0.25,1').split(',').map(Number);
  const baselineRoot = process.env.HISTORY_BENCH_BASELINE ?? null;
  const baselineMax = Number(process.env.HISTORY_BENCH_BASELINE_MAX ?? 0.25);
  const today = new Date().toISOString().slice(0, 10);
  const allDates = cadenceDates('2009-01-31', today, 'month-end').filter((d) => d !== today);
  const root = path.join(process.env.HISTORY_BENCH_DIR ?? os.tmpdir(), `faithscreen-history-bench-${process.pid}`);
  const out: HistorySizeFigures[] = [];
  try {
    // Sizes grow by adding older dates, so each size's lake extends the previous one's.
    await mkdir(root, { recursive: true });
    let written: string[] = [];
    let files = 0;
    let writeSeconds = 0;
    for (const fraction of [...fractions].sort((a, b) => a - b)) {
      const dates = allDates.slice(allDates.length - Math.round(allDates.length * fraction));
      const missing = dates.filter((d) => !written.includes(d));
      const t0 = performance.now();
      files += await synthesize(root, missing, tickers, allDates.indexOf(missing[0]!));
      writeSeconds += (performance.now() - t0) / 1000;
      written = dates;
      const perMarket = Math.ceil(tickers / MARKETS.length);
      const probes = Array.from({ length: 400 }, (_, i) => {
        const h = mix(i, 7);
        const date = dates[h % dates.length]!;
        // The 15th of a month: the answer is the month end before it (none for the first month).
        return { market: MARKETS[h % MARKETS.length]!, ticker: `S${String(mix(i, 11) % perMarket).padStart(5, '0')}`, date: `${date.slice(0, 7)}-15` };
      });
      const current = measure(root, CODE_ROOT, probes);
      const baseline = baselineRoot && existsSync(baselineRoot) && fraction <= baselineMax ? measure(root, baselineRoot, probes) : null;
      out.push({ fraction, dates: dates.length, snapshots: dates.length * perMarket * MARKETS.length, files, writeSeconds, current, baseline });
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return out;
}

export function formatApiHistoryBench(sizes: HistorySizeFigures[]): string[] {
  const f = (r: ReadsFigures) =>
    `ready ${r.readySeconds.toFixed(1)} s, RSS ${r.rssAtReadyMiB.toFixed(0)} MiB at ready / ${r.rssAfterMiB.toFixed(0)} MiB after sidecars (${r.sidecarsSeconds.toFixed(1)} s) / peak ${r.maxRssMiB.toFixed(0)} MiB, ` +
    `${r.heldSnapshots.toLocaleString('en')} rows held, as_of p50 ${r.asOf.p50Ms.toFixed(1)} ms p99 ${r.asOf.p99Ms.toFixed(1)} ms (${r.asOf.found}/${r.asOf.probes} found)`;
  return sizes.flatMap((s) => [
    `[api-history] SYNTHETIC lake, ${(s.fraction * 100).toFixed(0)} % of month-end history from 2009: ${s.dates} dates, ${s.snapshots.toLocaleString('en')} snapshots in ${s.files.toLocaleString('en')} files (written in ${s.writeSeconds.toFixed(0)} s)`,
    `[api-history]   this build: ${f(s.current)}`,
    ...(s.baseline ? [`[api-history]   baseline (every snapshot in memory): ${f(s.baseline)}`] : []),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const line of formatApiHistoryBench(await runApiHistoryBench())) console.log(line);
}
