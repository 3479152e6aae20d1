/**
 * Bound parameters on the API's hot reads (`npx tsx bench/sql-params.bench.ts`): the per-request
 * statements of `warehouse/api-reads/` (an as_of row lookup, a batch of `result_json`) run three
 * ways against the same lake, in one run: values written in as literals (the baseline, how these
 * statements were built before values were bound), values bound with a fresh prepare per call
 * (what the API's other reads do), and a kept prepared statement rebound with new values (`readPrepared`,
 * what these two hot reads do).
 *
 * Data: **synthetic** snapshots (the history benchmark's generator), SQL_BENCH_DATES month ends ×
 * SQL_BENCH_TICKERS tickers over every market, written through the snapshot writer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ConnectionPool } from '../warehouse/api-reads/api-reads-lake.ts';
import { resultJsonBatchSql, snapshotPartitionDir } from '../warehouse/api-reads/api-reads-sql.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import { inlineSql, readPrepared, readSql, type Sql } from '../warehouse/sql.ts';
import { syntheticRows } from './api-history.bench.ts';
import { describeMachine } from './machine.ts';

type Way = 'literal' | 'bound' | 'reused';

export interface SqlParamsFigures {
  snapshots: number;
  calls: number;
  /** Median and p99 per call, ms, by statement and way. */
  statements: Array<{ name: string; ways: Record<Way, { p50Ms: number; p99Ms: number }> }>;
}

function monthEnds(count: number): string[] {
  const dates: string[] = [];
  for (let m = 0; m < count; m += 1) dates.push(new Date(Date.UTC(2024, m + 1, 0)).toISOString().slice(0, 10));
  return dates;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function summary(ms: number[]): { p50Ms: number; p99Ms: number } {
  ms.sort((x, y) => x - y);
  return { p50Ms: percentile(ms, 0.5), p99Ms: percentile(ms, 0.99) };
}

/** Runs `build(i)` each way, after checking the three ways give the same rows. */
async function measure(
  connection: DuckDBConnection,
  calls: number,
  build: (i: number) => Sql,
): Promise<Record<Way, { p50Ms: number; p99Ms: number }>> {
  // One untimed pass first, so every way reads warm footers and page cache.
  for (let i = 0; i < Math.min(calls, 20); i += 1) {
    const rows = [JSON.stringify((await connection.runAndReadAll(inlineSql(build(i)))).getRowsJson())];
    rows.push(JSON.stringify((await readSql(connection, build(i))).getRowsJson()));
    rows.push(JSON.stringify((await readPrepared(connection, build(i))).getRowsJson()));
    if (new Set(rows).size !== 1) throw new Error(`call ${i}: the three ways gave different rows`);
  }
  // The ways take turns call by call, in a rotating order, so a busy machine's drift falls on all three alike.
  const ways: Record<Way, (i: number) => Promise<unknown>> = {
    literal: (i) => connection.runAndReadAll(inlineSql(build(i))),
    bound: (i) => readSql(connection, build(i)),
    reused: (i) => readPrepared(connection, build(i)),
  };
  const names = Object.keys(ways) as Way[];
  const ms: Record<Way, number[]> = { literal: [], bound: [], reused: [] };
  for (let i = 0; i < calls; i += 1) {
    for (let k = 0; k < names.length; k += 1) {
      const way = names[(i + k) % names.length]!;
      const start = performance.now();
      await ways[way](i);
      ms[way].push(performance.now() - start);
    }
  }
  const [literal, bound, reused] = names.map((way) => summary(ms[way])) as [
    ReturnType<typeof summary>,
    ReturnType<typeof summary>,
    ReturnType<typeof summary>,
  ];
  return { literal, bound, reused };
}

export async function runSqlParamsBench(): Promise<SqlParamsFigures> {
  const dates = monthEnds(Number(process.env.SQL_BENCH_DATES ?? 12));
  const tickers = Number(process.env.SQL_BENCH_TICKERS ?? 20_000);
  const calls = Number(process.env.SQL_BENCH_CALLS ?? 300);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'faithscreen-sql-bench-'));
  try {
    let snapshots = 0;
    for (const [i, date] of dates.entries()) {
      snapshots += (await writeSnapshots(dataDir, syntheticRows(date, tickers, i), { fileStem: `sql-bench-${date}`, threads: 2 })).rows;
    }
    // The generator's first market (m00 … m19 share the tickers evenly).
    const market = 'm00';
    const files = dates.map((d) => path.join(snapshotPartitionDir(dataDir, market, d.slice(0, 4)), `sql-bench-${d}.parquet`));
    const perMarket = Math.ceil(tickers / 20);
    const ticker = (i: number): string => `S${String((i * 7919) % perMarket).padStart(5, '0')}`;
    const pool = await ConnectionPool.open({ maxActive: 1 });
    try {
      return await pool.use(async (connection) => ({
        snapshots,
        calls,
        statements: [
          {
            name: 'result_json batch of 8 (resultJsonBatchSql)',
            ways: await measure(connection, calls, (i) =>
              resultJsonBatchSql(
                files[i % files.length]!,
                Array.from({ length: 8 }, (_, k) => ticker(i * 8 + k)),
              ),
            ),
          },
        ],
      }));
    } finally {
      pool.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatSqlParamsBench(figures: SqlParamsFigures): string[] {
  const ms = (f: { p50Ms: number; p99Ms: number }): string => `p50 ${f.p50Ms.toFixed(2)} ms, p99 ${f.p99Ms.toFixed(2)} ms`;
  return figures.statements.map(
    (s) =>
      `[sql-params] ${s.name}, ${figures.calls} calls over ${figures.snapshots.toLocaleString('en')} synthetic snapshots: ` +
      `literals (baseline) ${ms(s.ways.literal)}; bound, prepared per call ${ms(s.ways.bound)}; kept prepared statement ${ms(s.ways.reused)}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const line of formatSqlParamsBench(await runSqlParamsBench())) console.log(line);
}
