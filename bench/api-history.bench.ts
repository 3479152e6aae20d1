/**
 * History-length benchmark (`npx tsx bench/api-history.bench.ts`): the API's memory and time to
 * ready, and as_of latency, against the length of history held.
 *
 * Data: **synthetic** snapshots generated in SQL and published through the lake writer the
 * snapshot writer uses (real Parquet files in the snapshots schema, sorted by ticker, one per
 * market per date, as a backfill publishes them before compaction; the writer also writes each
 * file's rows to the serving store), not screened by the engine: HISTORY_BENCH_TICKERS tickers (default 124,000, the
 * sample universe's size) over 20 markets, every month end from 2009-01-31, with generated
 * statuses and ratios and a small placeholder `result_json` (its size does not enter what is
 * measured: the API never holds results in memory). The full size is 216 month ends
 * (≈ 26.8 M snapshots); HISTORY_BENCH_SIZES picks which fractions of it run (default `0.25,1`,
 * the quarter being the newest quarter of the dates).
 *
 * Each size: a fresh API process opens the reads (what the API role does before it listens):
 * the start checks the store holds every lake file (it does: nothing to copy) and reads each
 * ticker's current row from the serving store once (docs/serving.md, "The serving store").
 * Measured: time to ready, RSS at ready and at the end, peak RSS, as_of lookups spread over
 * tickers and dates (older snapshots are keyed reads of the store), the event-loop delay and
 * paced reads quiet and while another process publishes, and how soon each publish is served
 * (the store's change feed). HISTORY_BENCH_BASELINE names the root of an older checkout to
 * measure beside on the same lake (its reads held every snapshot in memory; its `api-cache/`
 * removed first); it runs only at sizes up to HISTORY_BENCH_BASELINE_MAX (default 0.25).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listValue } from '@duckdb/node-api';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../warehouse/lake-schemas.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { publishLakeFile } from '../warehouse/lake-writer.ts';
import { joinSql, rawSql, sql, sqlDate, type Sql } from '../warehouse/sql.ts';
import { eraOf, type SnapshotRow } from '../warehouse/snapshot-schema.ts';
import { cadenceDates } from '../workflows/cadence.ts';
import { hashedStatuses, SNAPSHOT_STATUSES, syntheticSnapshotRow } from '../test/support/synthetic-snapshots.ts';
import { describeMachine } from './machine.ts';

const CODE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MARKETS = Array.from({ length: 20 }, (_, i) => `m${String(i).padStart(2, '0')}`);
const RESULT_JSON = JSON.stringify({
  synthetic: true,
  note: 'placeholder result of a benchmark-synthesized snapshot (bench/api-history.bench.ts)',
});

export interface HistorySizeFigures {
  fraction: number;
  dates: number;
  snapshots: number;
  files: number;
  writeSeconds: number;
  /** A start over the serving store the publishes wrote (it holds every lake file). */
  current: ReadsFigures;
  baseline: ReadsFigures | null;
}

export interface ReadsFigures {
  readySeconds: number;
  rssAtReadyMiB: number;
  rssAfterMiB: number;
  maxRssMiB: number;
  heldSnapshots: number;
  /** Current rows read from the serving store, and what the start copied from lake files it did not hold (absent in a baseline checkout's figures). */
  currentRowsRead?: number;
  servingSync?: { lakeFiles: number; filesCopied: number; rowsCopied: number; ms: number } | null;
  asOf: { probes: number; found: number; p50Ms: number; p99Ms: number; maxMs: number };
  /** Event-loop delay and busy time over 3 s with no publish, and while another process publishes (null: not run). */
  loopDelay: { quiet: LoopFigures; publishing: LoopFigures | null };
  /** From each publish's end to the API serving it. */
  visibleMs: number[];
  /** Paced reads (500/s, a different ticker each) over the quiet and the publishing windows. */
  pacedReads: { quiet: PacedReadFigures | null; publishing: PacedReadFigures | null };
}

export interface LoopFigures {
  p99Ms: number;
  maxMs: number;
  /** Time the event loop was busy over the window (absent in runs before it was measured). */
  busyMs?: number;
}

export interface PacedReadFigures {
  reads: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU time of the whole process (every thread) over the window. */
  cpuMs: number;
}

/** A small deterministic hash, so every (ticker, date) gets the same synthetic figures each run. */
function mix(a: number, b: number): number {
  let h = (a * 0x9e3779b1) ^ (b * 0x85ebca77);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

function syntheticRow(market: string, index: number, date: string, dayIndex: number, screenedAt: string): SnapshotRow {
  const h = mix(index + MARKETS.indexOf(market) * 1_000_003, dayIndex);
  return syntheticSnapshotRow({
    market,
    ticker: `S${String(index).padStart(5, '0')}`,
    date,
    screenedAt,
    runId: 'history-bench',
    engineVersion: 'bench',
    resultJson: RESULT_JSON,
    status: hashedStatuses(h),
    ratio: (i) => ((h >>> i) % 1000) / 1000,
  });
}

/** One synthetic snapshot of each of `tickers` tickers (spread over the markets) on `date`. */
export function syntheticRows(date: string, tickers: number, dayIndex: number, screenedAt = `${date}T02:00:00.000`): SnapshotRow[] {
  const perMarket = Math.ceil(tickers / MARKETS.length);
  const rows: SnapshotRow[] = [];
  for (const market of MARKETS) for (let i = 0; i < perMarket; i += 1) rows.push(syntheticRow(market, i, date, dayIndex, screenedAt));
  return rows;
}

/**
 * The same synthetic snapshots as `syntheticRows`, generated in SQL (millions of rows: building
 * them as objects would take longer than the measurement), for one market and date.
 */
function syntheticSnapshotsSql(market: string, date: string, perMarket: number): Sql {
  const seed = sql`hash(i, ${market}, ${date})`;
  const statuses = SNAPSHOT_FRAMEWORKS.map(
    (id, k) => sql`${listValue([...SNAPSHOT_STATUSES])}[1 + ((${seed} >> ${2 * k}) % 4)::INTEGER] AS ${rawSql(id)}_status`,
  );
  const ratios = SNAPSHOT_RATIOS.map((r, k) => sql`((${seed} >> ${k}) % 1000)::DOUBLE / 1000 AS ${rawSql(r)}`);
  return sql`SELECT 'S' || lpad(CAST(i AS VARCHAR), 5, '0') AS ticker, ${sqlDate(date)} AS snapshot_date,
      CAST(${`${date} 02:00:00`} AS TIMESTAMP) AS screened_at, 'backfill' AS source, 'history-bench' AS run_id, ${eraOf(date)} AS era,
      'bench' AS engine_version, ${joinSql(statuses, ', ')}, ${joinSql(ratios, ', ')},
      NULL AS filing_ref, NULL AS period_end, ${sqlDate(date)} AS price_date, ${RESULT_JSON} AS result_json, true AS synthetic,
      'sample' AS data_source
    FROM range(${perMarket}) t(i)`;
}

/** Writes `dates` × `tickers` synthetic snapshots through the lake writer (one file per market and date, announced); returns files written. */
export async function synthesize(
  dataDir: string,
  dates: readonly string[],
  tickers: number,
  markets: readonly string[] = MARKETS,
): Promise<number> {
  const perMarket = Math.ceil(tickers / markets.length);
  return withDuckDB(':memory:', { threads: 2 }, async (connection) => {
    let files = 0;
    for (const date of dates) {
      for (const market of markets) {
        const target = {
          table: 'snapshots' as const,
          partitionValues: [market, date.slice(0, 4)],
          fileName: `history-bench-${date}.parquet`,
        };
        await publishLakeFile(connection, dataDir, target, syntheticSnapshotsSql(market, date, perMarket), 'ticker', {
          plainStrings: true,
        });
        files += 1;
      }
    }
    return files;
  });
}

/** One size of the synthetic month-end history: the lake under `root` holds exactly these dates. */
export interface HistorySize {
  fraction: number;
  /** Month ends from 2009-01-31 to yesterday, the newest `fraction` of them. */
  dates: string[];
  snapshots: number;
  perMarket: number;
  /** Files written so far (every size) and the seconds that took. */
  files: number;
  writeSeconds: number;
}

/**
 * Grows a synthetic month-end history size by size (smallest fraction first), each size's lake
 * extending the previous one's by the older dates it lacks, and yields each once written.
 */
export async function* growHistory(
  root: string,
  options: { tickers: number; fractions: readonly number[]; markets?: readonly string[] },
): AsyncGenerator<HistorySize> {
  const markets = options.markets ?? MARKETS;
  const perMarket = Math.ceil(options.tickers / markets.length);
  const today = new Date().toISOString().slice(0, 10);
  const allDates = cadenceDates('2009-01-31', today, 'month-end').filter((d) => d !== today);
  await mkdir(root, { recursive: true });
  let written = new Set<string>();
  let files = 0;
  let writeSeconds = 0;
  for (const fraction of [...options.fractions].sort((a, b) => a - b)) {
    const dates = allDates.slice(allDates.length - Math.round(allDates.length * fraction));
    const t0 = performance.now();
    files += await synthesize(
      root,
      dates.filter((d) => !written.has(d)),
      options.tickers,
      markets,
    );
    writeSeconds += (performance.now() - t0) / 1000;
    written = new Set(dates);
    yield { fraction, dates, snapshots: dates.length * perMarket * markets.length, perMarket, files, writeSeconds };
  }
}

function measure(dataDir: string, codeRoot: string, probes: unknown[], publish: unknown): ReadsFigures {
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(CODE_ROOT, 'bench', 'api-history-child.ts'),
      dataDir,
      codeRoot,
      JSON.stringify(probes),
      JSON.stringify(publish),
    ],
    {
      cwd: codeRoot,
      encoding: 'utf8',
      maxBuffer: 16 * 2 ** 20,
    },
  );
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
  const root = path.join(process.env.HISTORY_BENCH_DIR ?? os.tmpdir(), `faithscreen-history-bench-${process.pid}`);
  const out: HistorySizeFigures[] = [];
  try {
    for await (const { fraction, dates, snapshots, perMarket, files, writeSeconds } of growHistory(root, { tickers, fractions })) {
      const probes = Array.from({ length: 400 }, (_, i) => {
        const h = mix(i, 7);
        const date = dates[h % dates.length]!;
        // The 15th of a month: the answer is the month end before it (none for the first month).
        return {
          market: MARKETS[h % MARKETS.length]!,
          ticker: `S${String(mix(i, 11) % perMarket).padStart(5, '0')}`,
          date: `${date.slice(0, 7)}-15`,
        };
      });
      // Publishes while the API runs: today's snapshots of every ticker, 3 rounds a second apart.
      const publish = { date: today, tickers, rounds: 3 };
      const current = measure(root, CODE_ROOT, probes, publish);
      // The baseline's first start: no verdicts it saved before (a smaller size's run left them).
      await rm(path.join(root, 'api-cache'), { recursive: true, force: true });
      const baseline =
        baselineRoot && existsSync(baselineRoot) && fraction <= baselineMax ? measure(root, baselineRoot, probes, publish) : null;
      out.push({
        fraction,
        dates: dates.length,
        snapshots,
        files,
        writeSeconds,
        current,
        baseline,
      });
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return out;
}

export function formatApiHistoryBench(sizes: HistorySizeFigures[]): string[] {
  const delay = (d: LoopFigures) =>
    `p99 ${d.p99Ms.toFixed(1)} ms, max ${d.maxMs.toFixed(1)} ms` + (d.busyMs === undefined ? '' : `, loop busy ${d.busyMs.toFixed(0)} ms`);
  /** What this build's start read from the store and copied into it (nothing for a baseline checkout). */
  const store = (r: ReadsFigures) =>
    r.currentRowsRead === undefined
      ? ''
      : ` (${r.currentRowsRead.toLocaleString('en')} current rows read from the store since start, its change feed included` +
        (r.servingSync
          ? `; ${r.servingSync.filesCopied} of ${r.servingSync.lakeFiles} lake files copied into it, ${(r.servingSync.ms / 1000).toFixed(1)} s`
          : '') +
        ')';
  const f = (r: ReadsFigures) =>
    `ready ${r.readySeconds.toFixed(1)} s, RSS ${r.rssAtReadyMiB.toFixed(0)} MiB at ready / ${r.rssAfterMiB.toFixed(0)} MiB at the ` +
    `end / peak ${r.maxRssMiB.toFixed(0)} MiB, ` +
    `${r.heldSnapshots.toLocaleString('en')} rows held` +
    store(r) +
    `, as_of p50 ${r.asOf.p50Ms.toFixed(1)} ms p99 ${r.asOf.p99Ms.toFixed(1)} ms ` +
    `(${r.asOf.found}/${r.asOf.probes} found); ` +
    `event-loop delay quiet ${delay(r.loopDelay.quiet)}` +
    (r.loopDelay.publishing
      ? `, while publishing ${delay(r.loopDelay.publishing)}, visible after ${r.visibleMs.map((ms) => ms.toFixed(0)).join(' / ')} ms`
      : '') +
    (['quiet', 'publishing'] as const)
      .map((window) => {
        const p = r.pacedReads?.[window];
        return p
          ? `; paced reads ${window}: ${p.reads} (${p.errors} errors) p50 ${p.p50Ms.toFixed(1)} / p99 ${p.p99Ms.toFixed(1)} / max ` +
              `${p.maxMs.toFixed(0)} ms, CPU ${((p.cpuMs / Math.max(1, p.reads)) * 1000).toFixed(0)} ms per 1,000 reads`
          : '';
      })
      .join('');
  return sizes.flatMap((s) => [
    `[api-history] SYNTHETIC lake, ${(s.fraction * 100).toFixed(0)} % of month-end history from 2009: ${s.dates} dates, ` +
      `${s.snapshots.toLocaleString('en')} snapshots in ${s.files.toLocaleString('en')} files (written in ${s.writeSeconds.toFixed(0)} s)`,
    `[api-history]   this build, start over the serving store: ${f(s.current)}`,
    ...(s.baseline ? [`[api-history]   baseline (HISTORY_BENCH_BASELINE checkout), first start: ${f(s.baseline)}`] : []),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const line of formatApiHistoryBench(await runApiHistoryBench())) console.log(line);
}
