import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { announceLakeChange } from './lake-journal.ts';
import { lakeRoot, partitionDir, partitionFile, type LakeTable } from './lake-paths.ts';
import { TABLE_SCHEMAS } from './lake-schemas.ts';
import { castColumnsSql, copyToParquetSql, type ParquetWriteOptions } from './lake-sql.ts';
import { publishFile } from './publish.ts';
import type { ServingBatch } from '../serving/serving-types.ts';
import { feedServingStore, writeServingRows } from './serving-feed.ts';
import { rawSql, runSql, sql, type Sql } from './sql.ts';

/** One Parquet file to publish: its table, partition values (outermost first) and deterministic name. */
export interface LakeFileTarget {
  table: LakeTable;
  partitionValues: readonly string[];
  fileName: string;
}

/** Absolute path of a lake file target. */
export function lakeFilePath(dataDir: string, target: LakeFileTarget): string {
  const schema = TABLE_SCHEMAS[target.table];
  if (schema.partitions.length !== target.partitionValues.length) {
    throw new Error(`${target.table} has ${schema.partitions.length} partition keys, got ${target.partitionValues.length} values`);
  }
  const dir = partitionDir(
    dataDir,
    target.table,
    schema.partitions.map((p, i) => [p.name, target.partitionValues[i]!] as const),
  );
  return partitionFile(dir, target.fileName);
}

/**
 * Publishes the rows of `fromSql` (a relation with the table's stored columns, by name) as one
 * zstd Parquet file, atomically, sorted by `orderBy`, or in the relation's own order when
 * `orderBy` is null (DuckDB keeps insertion order: a caller that staged its rows sorted saves
 * a sort of wide rows). Returns the path relative to `dataDir`. A retry with the same target
 * replaces the earlier file. The rows of a table the serving store holds (snapshots, listings, fund
 * holdings, methodology texts) are written to it once the file is in place (docs/serving.md, "The
 * serving store"); then the file is announced in the lake's change journal.
 */
export async function publishLakeFile(
  connection: DuckDBConnection,
  dataDir: string,
  target: LakeFileTarget,
  fromSql: Sql,
  orderBy: string | null,
  parquet: ParquetWriteOptions = {},
  /** A snapshot file's rows as the publisher holds them, written to the serving store instead of read back from the file. */
  servingRows?: ServingBatch,
): Promise<string> {
  const schema = TABLE_SCHEMAS[target.table];
  const finalPath = lakeFilePath(dataDir, target);
  const query = sql`SELECT ${rawSql(castColumnsSql(schema))} FROM (${fromSql})${rawSql(orderBy === null ? '' : ` ORDER BY ${orderBy}`)}`;
  await publishFile(finalPath, async (temp) => {
    await runSql(connection, copyToParquetSql(query, temp, parquet));
  });
  if (servingRows) await writeServingRows(dataDir, finalPath, servingRows);
  else await feedServingStore(connection, dataDir, target.table, finalPath);
  await announceLakeChange(dataDir, { op: 'add', table: target.table, files: [path.relative(lakeRoot(dataDir), finalPath)] });
  return path.relative(dataDir, finalPath);
}
