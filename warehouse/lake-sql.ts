import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LakeTable } from './lake-paths.ts';
import { SEED_PARTITION, TABLE_SCHEMAS, type TableSchema } from './lake-schemas.ts';
import { listValue, structValue } from '@duckdb/node-api';
import { inlineSql, rawSql, sql, sqlIdent, sqlString, type Sql } from './sql.ts';

/** SQL pieces shared by the lake's writers, readers and catalog views. */

/** `CAST(x AS T) AS x, …` for every stored column of a table, reading from `alias`. */
export function castColumnsSql(schema: TableSchema, alias?: string): string {
  const prefix = alias ? `${alias}.` : '';
  return schema.columns.map((col) => `CAST(${prefix}${sqlIdent(col.name)} AS ${col.type}) AS ${sqlIdent(col.name)}`).join(', ');
}

/** The Hive partition types of a table as a DuckDB struct for `hive_types`. */
function hiveTypes(schema: TableSchema): ReturnType<typeof structValue> {
  return structValue(Object.fromEntries(schema.partitions.map((p) => [p.name, p.type])));
}

/** Glob of one table's files under an absolute lake root, optionally narrowed to one first-level partition value. */
export function tableGlobUnder(lakeRootDir: string, table: LakeTable, firstPartitionValue?: string): string {
  const schema = TABLE_SCHEMAS[table];
  if (firstPartitionValue === undefined) return path.join(lakeRootDir, table, '**', '*.parquet');
  const first = `${schema.partitions[0]!.name}=${firstPartitionValue}`;
  return path.join(lakeRootDir, table, first, '**', '*.parquet');
}

/**
 * `read_parquet(…)` over a table's files with Hive partitions typed as the schema says. Narrowed
 * to one partition value, the read also takes the table's zero-row seed files (when the catalog
 * laid them), so a column added by a later migration binds even when every data file predates it.
 */
export function readTableSql(lakeRootDir: string, table: LakeTable, firstPartitionValue?: string): Sql {
  const schema = TABLE_SCHEMAS[table];
  const glob = tableGlobUnder(lakeRootDir, table, firstPartitionValue);
  const seeds = firstPartitionValue === undefined ? null : tableGlobUnder(lakeRootDir, table, SEED_PARTITION);
  const files = seeds !== null && existsSync(path.dirname(path.dirname(seeds))) ? listValue([glob, seeds]) : glob;
  return sql`read_parquet(${files}, hive_partitioning = true, union_by_name = true, hive_types = ${hiveTypes(schema)})`;
}

/**
 * A view body exposing a table's partition columns first, then its stored columns, with fixed types. A view
 * cannot be prepared, so its file globs are written in as literals.
 */
export function tableViewSql(lakeRootDir: string, table: LakeTable): string {
  const schema = TABLE_SCHEMAS[table];
  const partitions = schema.partitions.map((p) => `CAST(${sqlIdent(p.name)} AS ${p.type}) AS ${sqlIdent(p.name)}`);
  const columns = schema.columns.map((col) => `CAST(${sqlIdent(col.name)} AS ${col.type}) AS ${sqlIdent(col.name)}`);
  return inlineSql(sql`SELECT ${rawSql([...partitions, ...columns].join(', '))} FROM ${readTableSql(lakeRootDir, table)}`);
}

/** Zero rows with the table's stored columns and types (the body of a seed file). */
export function emptyRowsSql(schema: TableSchema): string {
  return `SELECT ${schema.columns.map((col) => `CAST(NULL AS ${col.type}) AS ${sqlIdent(col.name)}`).join(', ')} WHERE false`;
}

/** Partition values of a table's seed file (`_none` for text keys, 0 for numeric ones). */
export function seedPartitions(schema: TableSchema): Array<[string, string]> {
  return schema.partitions.map((p) => [p.name, p.type === 'VARCHAR' ? SEED_PARTITION : '0']);
}

export interface ParquetWriteOptions {
  /**
   * Write every string column plain, without dictionary pages: for a table whose big strings
   * are all distinct (snapshots' `result_json`), where trying a dictionary per row group only
   * costs time, for a slightly larger file (docs/benchmarks/figures-behind-code.md).
   */
  plainStrings?: boolean;
  /** zstd level (DuckDB's default is 3). */
  zstdLevel?: number;
}

/**
 * `COPY (query) TO 'file' (FORMAT parquet, COMPRESSION zstd)`. The file is written in as a literal: DuckDB
 * numbers a `?` after `TO` before the query's own, so a bound target would take the query's first value.
 */
export function copyToParquetSql(query: Sql, file: string, options: ParquetWriteOptions = {}): Sql {
  const plain = options.plainStrings ? ', STRING_DICTIONARY_PAGE_SIZE_LIMIT 1' : '';
  const level = options.zstdLevel === undefined ? '' : `, COMPRESSION_LEVEL ${Math.trunc(options.zstdLevel)}`;
  return sql`COPY (${query}) TO ${rawSql(sqlString(file))} (FORMAT parquet, COMPRESSION zstd${rawSql(level + plain)})`;
}
