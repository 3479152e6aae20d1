import { createHash } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { withDuckDB } from './duckdb.ts';
import { announceLakeChange, JOURNAL_TRIM_BYTES, trimLakeJournal } from './lake-journal.ts';
import { lakeRoot } from './lake-paths.ts';
import { SNAPSHOTS_SCHEMA } from './lake-schemas.ts';
import { castColumnsSql, copyToParquetSql } from './lake-sql.ts';
import { publishFile } from './publish.ts';
import { listValue } from '@duckdb/node-api';
import { rawSql, readSql, runSql, sql } from './sql.ts';
import { recordCompaction } from './serving-feed.ts';

export interface CompactionOptions {
  /** Compact a partition only when it has at least this many files (default 8). */
  minFiles?: number;
  /** Leave files younger than this alone: a chunk still being retried may republish them (default 6 hours). */
  minAgeMs?: number;
  /** Called after each partition, for heartbeats. */
  onPartition?: (partition: string) => void;
  now?: number;
  /**
   * How long the replaced files stay after the merged files are announced, so readers that
   * follow the change journal move on before they go (default 3 s; readers look every 0.5 s).
   */
  retireAfterMs?: number;
  /**
   * After the replaced files are gone, a change journal of at least this many bytes starts a
   * new generation (docs/warehouse.md, "Trimming the journal"); default 1 MiB.
   */
  trimJournalBytes?: number;
}

export interface CompactionResult {
  partitions: number;
  filesBefore: number;
  filesAfter: number;
  rows: number;
}

/** Identity of a snapshot row: compaction keeps one row per key, so a crash between publish and delete never duplicates rows. */
const SNAPSHOT_KEY = 'ticker, snapshot_date, screened_at, source, run_id';

async function partitionsOf(root: string): Promise<string[]> {
  const out: string[] = [];
  const markets = await readdir(path.join(root, 'snapshots')).catch(() => [] as string[]);
  for (const market of markets.filter((m) => m.startsWith('market=') && m !== 'market=_none')) {
    const years = await readdir(path.join(root, 'snapshots', market)).catch(() => [] as string[]);
    for (const year of years.filter((y) => y.startsWith('year='))) out.push(path.join(root, 'snapshots', market, year));
  }
  return out.sort();
}

interface PartitionSettings {
  dataDir: string;
  minFiles: number;
  minAgeMs: number;
  now: number;
}

interface CompactedPartition {
  before: number;
  after: number;
  rows: number;
  /** Files the merged file replaces, to remove once readers have moved on. */
  replaced: string[];
}

async function compactPartition(connection: DuckDBConnection, dir: string, options: PartitionSettings): Promise<CompactedPartition> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.parquet')).sort();
  const old: string[] = [];
  for (const name of names) {
    const info = await stat(path.join(dir, name));
    if (name.startsWith('compact-') || options.now - info.mtimeMs >= options.minAgeMs) old.push(name);
  }
  if (old.length < options.minFiles) return { before: names.length, after: names.length, rows: 0, replaced: [] };
  const digest = createHash('sha256').update(old.join('\n')).digest('hex').slice(0, 16);
  const target = path.join(dir, `compact-${digest}.parquet`);
  const files = listValue(old.map((n) => path.join(dir, n)));
  const query = sql`SELECT ${rawSql(castColumnsSql(SNAPSHOTS_SCHEMA))}
    FROM read_parquet(${files}, union_by_name = true, hive_partitioning = false)
    QUALIFY row_number() OVER (PARTITION BY ${rawSql(SNAPSHOT_KEY)}) = 1 ORDER BY ticker, snapshot_date, screened_at`;
  await publishFile(target, (temp) => runSql(connection, copyToParquetSql(query, temp)).then(() => undefined));
  const rows = (await readSql(connection, sql`SELECT count(*)::INTEGER AS n FROM read_parquet(${target})`)).getRowObjectsJS()[0]?.n;
  const replaced = old.map((name) => path.join(dir, name)).filter((file) => file !== target);
  const relative = (file: string) => path.relative(lakeRoot(options.dataDir), file);
  await recordCompaction(connection, options.dataDir, target, replaced);
  await announceLakeChange(options.dataDir, {
    op: 'replace',
    table: 'snapshots',
    removed: replaced.map(relative),
    added: [relative(target)],
  });
  return { before: names.length, after: names.length - old.length + 1, rows: Number(rows ?? 0), replaced };
}

/**
 * Merges the many small snapshot files of each (market, year) partition into one. Only
 * snapshots are compacted: reference tables are replaced whole by re-ingestion under
 * deterministic names, which a compacted file would duplicate. Each merged file is published
 * and announced in the change journal before the files it replaces are removed, and those go
 * only `retireAfterMs` later, once readers have swapped to the merged file
 * (docs/pipelines.md, "Lake maintenance"). Safe to retry.
 */
export async function compactSnapshots(dataDir: string, options: CompactionOptions = {}): Promise<CompactionResult> {
  const settings = {
    dataDir,
    minFiles: options.minFiles ?? 8,
    minAgeMs: options.minAgeMs ?? 6 * 3_600_000,
    now: options.now ?? Date.now(),
  };
  const replaced: string[] = [];
  const result = await withDuckDB(':memory:', {}, async (connection) => {
    const totals: CompactionResult = { partitions: 0, filesBefore: 0, filesAfter: 0, rows: 0 };
    for (const dir of await partitionsOf(lakeRoot(dataDir))) {
      const done = await compactPartition(connection, dir, settings);
      totals.partitions += 1;
      totals.filesBefore += done.before;
      totals.filesAfter += done.after;
      totals.rows += done.rows;
      replaced.push(...done.replaced);
      options.onPartition?.(path.relative(lakeRoot(dataDir), dir));
    }
    return totals;
  });
  if (replaced.length > 0) await new Promise((resolve) => setTimeout(resolve, options.retireAfterMs ?? 3_000));
  for (const file of replaced) await rm(file, { force: true });
  // Last: readers that rescan because of the trim then find the lake as compaction leaves it.
  await trimLakeJournal(dataDir, options.trimJournalBytes ?? JOURNAL_TRIM_BYTES);
  return result;
}
