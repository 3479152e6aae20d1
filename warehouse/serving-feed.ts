import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { listValue } from '@duckdb/node-api';
import { sharedServingStore, servingTargetOf } from '../serving/open-serving-store.ts';
import { deflateResult } from '../serving/serving-codec.ts';
import type { HeldFile, ServingSnapshot, ServingStore } from '../serving/serving-types.ts';
import { withDuckDB } from './duckdb.ts';
import { scanTableFiles } from './lake-files.ts';
import { lakeRoot } from './lake-paths.ts';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from './lake-schemas.ts';
import type { SnapshotFramework, SnapshotRow, SnapshotStatus } from './snapshot-schema.ts';
import { rawSql, readSql, sql, sqlIdent } from './sql.ts';

/**
 * The lake's feed of the serving store (docs/serving.md, "The serving store"): every snapshot
 * file published is copied into the store before it is announced, in the same call, so a
 * retried publish rewrites the same rows and a file is never served by the lake alone.
 */

const HIVE_TYPES = rawSql(`{'market': 'VARCHAR', 'year': 'INTEGER'}`);

function fileRowsSql(file: string) {
  const statuses = SNAPSHOT_FRAMEWORKS.map((id) => sqlIdent(`${id}_status`)).join(', ');
  const ratios = SNAPSHOT_RATIOS.map((r) => `CAST(${sqlIdent(r)} AS DOUBLE) AS ${sqlIdent(r)}`).join(', ');
  return sql`
    SELECT CAST(market AS VARCHAR) AS market, ticker,
           strftime(CAST(snapshot_date AS DATE), '%Y-%m-%d') AS snapshot_date,
           strftime(CAST(screened_at AS TIMESTAMP), '%Y-%m-%dT%H:%M:%S.%g') AS screened_at,
           source, ${rawSql(statuses)}, ${rawSql(ratios)},
           coalesce(synthetic, false) AS synthetic, coalesce(data_source, 'unknown') AS data_source, result_json
    FROM read_parquet(${listValue([file])}, hive_partitioning = true, union_by_name = true, hive_types = ${HIVE_TYPES})`;
}

function snapshotOf(record: Record<string, unknown>): ServingSnapshot {
  const statuses = {} as Record<SnapshotFramework, SnapshotStatus>;
  for (const id of SNAPSHOT_FRAMEWORKS) statuses[id] = record[`${id}_status`] as SnapshotStatus;
  const ratios = {} as ServingSnapshot['ratios'];
  for (const r of SNAPSHOT_RATIOS) ratios[r] = record[r] === null ? null : Number(record[r]);
  return {
    market: String(record.market),
    ticker: String(record.ticker),
    snapshotDate: String(record.snapshot_date),
    screenedAt: String(record.screened_at),
    source: String(record.source),
    statuses,
    ratios,
    synthetic: record.synthetic === true,
    dataSource: String(record.data_source),
    result: Buffer.from(String(record.result_json), 'utf8'),
  };
}

/** A lake file's identity in the store: its path under the lake root and its size and mtime. */
export async function heldFileOf(dataDir: string, file: string): Promise<HeldFile> {
  const info = await stat(file);
  return { path: path.relative(lakeRoot(dataDir), file), signature: `${info.mtimeMs}:${info.size}` };
}

/** Copies one published snapshot file's rows into the store and records the file as held; returns the rows copied. */
export async function copySnapshotFile(connection: DuckDBConnection, dataDir: string, file: string, store: ServingStore): Promise<number> {
  const held = await heldFileOf(dataDir, file);
  const rows = (await readSql(connection, fileRowsSql(file))).getRowObjectsJS().map(snapshotOf);
  await store.write(rows, held);
  return rows.length;
}

/**
 * A lake row as the store takes it, its result deflated at once (a writer staging many rows keeps
 * a few hundred bytes a row, not the JSON). Timestamps as the lake gives them back: UTC, millisecond
 * precision, no zone.
 */
export function servingSnapshotOf(row: SnapshotRow): ServingSnapshot {
  const statuses = {} as Record<SnapshotFramework, SnapshotStatus>;
  for (const id of SNAPSHOT_FRAMEWORKS) statuses[id] = row[`${id}_status`];
  const ratios = {} as ServingSnapshot['ratios'];
  for (const r of SNAPSHOT_RATIOS) ratios[r] = row[r] === null || row[r] === undefined ? null : Number(row[r]);
  const at = row.screened_at;
  const screenedAt = new Date(Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(at) ? at : `${at}Z`)).toISOString().slice(0, 23);
  return {
    market: row.market,
    ticker: row.ticker,
    snapshotDate: row.snapshot_date,
    screenedAt,
    source: row.source,
    statuses,
    ratios,
    synthetic: row.synthetic === true,
    dataSource: row.data_source ?? 'unknown',
    result: deflateResult(Buffer.from(row.result_json, 'utf8')),
    resultDeflated: true,
  };
}

/** Writes rows a publisher already holds for a file it just published (no read back of the file). */
export async function writeServingRows(dataDir: string, file: string, rows: readonly ServingSnapshot[]): Promise<void> {
  await (await sharedServingStore(servingTargetOf(dataDir))).write(rows, await heldFileOf(dataDir, file));
}

/** `copySnapshotFile` into the store the configuration places for `dataDir` (what publishers call). */
export async function feedServingStore(connection: DuckDBConnection, dataDir: string, file: string): Promise<number> {
  return copySnapshotFile(connection, dataDir, file, await sharedServingStore(servingTargetOf(dataDir)));
}

/**
 * A compaction merged `replaced` into `merged` (the same rows): the store then holds the merged
 * file, with no row written when it held every replaced file, else by copying the merged file.
 */
export async function recordCompaction(
  connection: DuckDBConnection,
  dataDir: string,
  merged: string,
  replaced: readonly string[],
): Promise<void> {
  const store = await sharedServingStore(servingTargetOf(dataDir));
  const relative = replaced.map((file) => path.relative(lakeRoot(dataDir), file));
  // One keyed read per replaced file, not a read of every file the store holds.
  const held = await Promise.all(relative.map((file) => store.heldSignature(file)));
  if (held.some((signature) => signature === undefined)) await copySnapshotFile(connection, dataDir, merged, store);
  await store.holdFiles([await heldFileOf(dataDir, merged)], relative);
}

/** What bringing the store up to the lake did. */
export interface ServingSyncResult {
  /** Snapshot files of the lake, and those copied because the store did not hold them. */
  lakeFiles: number;
  filesCopied: number;
  rowsCopied: number;
  /**
   * Files the store held that the lake no longer has (removed by hand, not by compaction): released,
   * and each partition they were in copied again from its remaining files, so their rows are no longer served.
   */
  filesReleased: number;
  ms: number;
}

export interface SyncOptions {
  /** Hears after each file copied: files done, files to copy, rows copied. */
  onProgress?: (done: number, total: number, rows: number) => void;
  /**
   * Whether files the store holds that this lake lacks were removed from the lake of record (stop
   * serving their rows). True only where this lake is the store's only one: the embedded store in
   * its `DATA_DIR`, or `serving rebuild` run by an operator on the lake of record. A PostgreSQL
   * store shared by hosts with lakes of their own never takes one host's lake as the whole truth.
   */
  releaseVanished?: boolean;
}

/**
 * Copies every snapshot file of the lake the store does not hold (or holds at another size or
 * mtime) into it, one transaction per file, so an interrupted run resumes where it stopped:
 * the first start after an upgrade, a store on a new engine, files published by hand, and
 * `faithscreen serving rebuild`. `onProgress` hears after each file.
 */
export async function syncServingFromLake(dataDir: string, store: ServingStore, options: SyncOptions = {}): Promise<ServingSyncResult> {
  const started = performance.now();
  const [lake, held] = await Promise.all([scanTableFiles(dataDir, 'snapshots'), store.heldFiles()]);
  const root = lakeRoot(dataDir);
  const missing = [...lake].filter(([file, signature]) => held.get(path.relative(root, file)) !== signature).map(([file]) => file);
  const lakePaths = new Set([...lake.keys()].map((file) => path.relative(root, file)));
  const gone = options.releaseVanished ? [...held.keys()].filter((file) => !lakePaths.has(file)) : [];
  // Files removed by hand (a bad batch): their rows must not be served. The store does not say
  // which file a row came from, so each partition they were in is copied again from what remains.
  const partitions = partitionsOf(gone);
  for (const { market, year } of partitions.values()) await store.forgetSnapshots(market, `${year}-01-01`, `${year}-12-31`);
  // Listed again after forgetting: a file published meanwhile is copied too.
  if (partitions.size > 0)
    for (const file of (await scanTableFiles(dataDir, 'snapshots')).keys())
      if (partitions.has(partitionKey(path.relative(root, file)) ?? '') && !missing.includes(file)) missing.push(file);
  let rows = 0;
  if (missing.length > 0)
    await withDuckDB(':memory:', { threads: 1 }, async (connection) => {
      // One file at a time: a small budget, and no cache of Parquet pages the OS caches anyway.
      await connection.run(`SET memory_limit = '256MB'; SET enable_external_file_cache = false`);
      for (const [i, file] of missing.sort().entries()) {
        try {
          rows += await copySnapshotFile(connection, dataDir, file, store);
        } catch (error) {
          // Compacted away since the listing: its rows are in the merged file, copied too.
          if (!isMissingFileError(error)) throw error;
        }
        options.onProgress?.(i + 1, missing.length, rows);
      }
    });
  if (gone.length > 0) await store.holdFiles([], gone);
  if (partitions.size > 0) await store.rebuildCurrent([...new Set([...partitions.values()].map((p) => p.market))]);
  return {
    lakeFiles: lake.size,
    filesCopied: missing.length,
    rowsCopied: rows,
    filesReleased: gone.length,
    ms: performance.now() - started,
  };
}

const PARTITION = /^snapshots[/\\]market=([^/\\]+)[/\\]year=(\d{4})[/\\]/;

/** `market/year` of a snapshot file's path under the lake root, or null outside the partitions. */
function partitionKey(relative: string): string | null {
  const match = PARTITION.exec(relative);
  return match === null ? null : `${match[1]}/${match[2]}`;
}

function partitionsOf(files: readonly string[]): Map<string, { market: string; year: string }> {
  const out = new Map<string, { market: string; year: string }>();
  for (const file of files) {
    const key = partitionKey(file);
    if (key !== null) out.set(key, { market: key.split('/')[0]!, year: key.split('/')[1]! });
  }
  return out;
}

function isMissingFileError(error: unknown): boolean {
  return /No such file or directory|ENOENT|No files found that match the pattern/.test((error as Error)?.message ?? '');
}

/**
 * Copies a file the change journal announced when the store does not hold it at `signature`
 * (a writer on another engine's store, one that could not reach it): one keyed read when it
 * does, which is every file faithscreen's writers published. Returns the rows copied.
 */
export async function copyIfNotHeld(
  withConnection: <T>(work: (connection: DuckDBConnection) => Promise<T>) => Promise<T>,
  dataDir: string,
  file: string,
  signature: string,
  store: ServingStore,
): Promise<number> {
  if ((await store.heldSignature(path.relative(lakeRoot(dataDir), file))) === signature) return 0;
  return withConnection((connection) => copySnapshotFile(connection, dataDir, file, store));
}
