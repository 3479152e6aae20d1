import path from 'node:path';

/** Lake tables, each a folder of Hive-partitioned Parquet files under `DATA_DIR/lake`. */
export const LAKE_TABLES = [
  'listings',
  'fundamentals',
  'prices',
  'exposures',
  'fund_holdings',
  'splits',
  'snapshots',
  'methodology_texts',
] as const;
export type LakeTable = (typeof LAKE_TABLES)[number];

const PARTITION_VALUE = /^[A-Za-z0-9_.-]+$/;
const FILE_NAME = /^[A-Za-z0-9_.-]+\.parquet$/;

/** Root folder of the lake inside the data directory. */
export function lakeRoot(dataDir: string): string {
  return path.resolve(dataDir, 'lake');
}

/** Absolute path of the DuckDB catalog file researchers open read-only. */
export function catalogPath(dataDir: string): string {
  return path.resolve(dataDir, 'warehouse.duckdb');
}

/**
 * Folder of one Hive partition, e.g. `lake/snapshots/market=us/year=2026`.
 * Partition values are restricted to a safe alphabet so a value can never escape the lake.
 */
export function partitionDir(dataDir: string, table: LakeTable, partitions: ReadonlyArray<readonly [string, string]>): string {
  const parts = partitions.map(([key, value]) => {
    if (!PARTITION_VALUE.test(key) || !PARTITION_VALUE.test(value)) {
      throw new Error(`invalid partition ${key}=${value}: use letters, digits, '_', '-', '.'`);
    }
    return `${key}=${value}`;
  });
  return path.join(lakeRoot(dataDir), table, ...parts);
}

/** Path of a Parquet file in a partition; the name is chosen by the writer so a retry replaces its own output. */
export function partitionFile(dir: string, fileName: string): string {
  if (!FILE_NAME.test(fileName)) throw new Error(`invalid lake file name ${fileName}: expected [A-Za-z0-9_.-]+.parquet`);
  return path.join(dir, fileName);
}

/** Glob matching every published Parquet file of a table (temp files never match it). */
export function tableGlob(dataDir: string, table: LakeTable): string {
  return path.join(lakeRoot(dataDir), table, '**', '*.parquet');
}
