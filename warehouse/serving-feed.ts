import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { listValue } from '@duckdb/node-api';
import { sharedServingStore, servingTargetOf } from '../serving/open-serving-store.ts';
import { ResultGrouper } from '../serving/result-grouper.ts';
import type { ServingBatch, ServingRow, ServingStore } from '../serving/serving-types.ts';
import { heldFileOf } from './lake-files.ts';
import { lakeRoot, type LakeTable } from './lake-paths.ts';
import { copyLakeTableFile, isServedLakeTable } from './serving-lake-tables.ts';
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

function rowOfRecord(record: Record<string, unknown>): ServingRow {
  const statuses = {} as Record<SnapshotFramework, SnapshotStatus>;
  for (const id of SNAPSHOT_FRAMEWORKS) statuses[id] = record[`${id}_status`] as SnapshotStatus;
  const ratios = {} as ServingRow['ratios'];
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
  };
}

/** Copies one published snapshot file's rows into the store and records the file as held; returns the rows copied. */
export async function copySnapshotFile(connection: DuckDBConnection, dataDir: string, file: string, store: ServingStore): Promise<number> {
  const held = await heldFileOf(dataDir, file);
  const grouper = new ResultGrouper();
  // In file order (ticker, then day): a ticker's days of one screen share a result block.
  for (const record of (await readSql(connection, fileRowsSql(file))).getRowObjectsJS())
    grouper.add(rowOfRecord(record), Buffer.from(String(record.result_json), 'utf8'));
  const { snapshots, blocks } = grouper.finish();
  await store.write(snapshots, held, blocks);
  return snapshots.length;
}

/**
 * A lake row as the store takes it, without its result (a `ResultGrouper` takes that). Timestamps
 * as the lake gives them back: UTC, millisecond precision, no zone.
 */
let lastScreenedAt = { lake: '', stored: '' };

/** `screened_at` as the store keeps it; a chunk's rows share one, so the last is remembered. */
function storedScreenedAt(at: string): string {
  if (at !== lastScreenedAt.lake)
    lastScreenedAt = { lake: at, stored: new Date(Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(at) ? at : `${at}Z`)).toISOString().slice(0, 23) };
  return lastScreenedAt.stored;
}

export function servingRowOf(row: SnapshotRow): ServingRow {
  const statuses = {} as Record<SnapshotFramework, SnapshotStatus>;
  for (const id of SNAPSHOT_FRAMEWORKS) statuses[id] = row[`${id}_status`];
  const ratios = {} as ServingRow['ratios'];
  for (const r of SNAPSHOT_RATIOS) ratios[r] = row[r] === null || row[r] === undefined ? null : Number(row[r]);
  return {
    market: row.market,
    ticker: row.ticker,
    snapshotDate: row.snapshot_date,
    screenedAt: storedScreenedAt(row.screened_at),
    source: row.source,
    statuses,
    ratios,
    synthetic: row.synthetic === true,
    dataSource: row.data_source ?? 'unknown',
  };
}

/** Writes rows a publisher already holds for a file it just published (no read back of the file). */
export async function writeServingRows(dataDir: string, file: string, batch: ServingBatch): Promise<void> {
  const store = await sharedServingStore(servingTargetOf(dataDir));
  await store.write(batch.snapshots, await heldFileOf(dataDir, file), batch.blocks, batch.reports);
}

/**
 * Copies a just-published file of a table the store holds into the store the configuration
 * places for `dataDir` (what publishers call); other tables are not served. Returns the rows.
 */
export async function feedServingStore(connection: DuckDBConnection, dataDir: string, table: LakeTable, file: string): Promise<number> {
  if (table === 'snapshots') return copySnapshotFile(connection, dataDir, file, await sharedServingStore(servingTargetOf(dataDir)));
  if (isServedLakeTable(table))
    return copyLakeTableFile(connection, dataDir, table, file, await sharedServingStore(servingTargetOf(dataDir)));
  return 0;
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
