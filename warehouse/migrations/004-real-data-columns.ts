import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { TABLE_SCHEMAS } from '../lake-schemas.ts';
import type { LakeTable } from '../lake-paths.ts';
import { copyToParquetSql, emptyRowsSql, seedPartitions, tableViewSql } from '../lake-sql.ts';
import { rawSql } from '../sql.ts';
import type { Migration } from './migration.ts';

/** Zero-row seeds carrying the columns real data needs (docs/data/real-companies.md). */
export const REAL_DATA_SEED_FILE = 'seed-v4-real-data.parquet';

/** The tables that gain columns (or, for splits, appear) in this migration, with their view names. */
const TABLES: ReadonlyArray<[LakeTable, string]> = [
  ['fundamentals', 'fundamentals'],
  ['prices', 'prices'],
  ['exposures', 'exposures'],
  ['splits', 'splits'],
];

/**
 * Fundamentals gain `figure_sources`, prices `split_adjusted_through`, exposures `evidence`, and
 * the lake a `splits` table. Older files lack the columns; a seed that has them makes every
 * older file read them as null (`union_by_name`), and the views are rebuilt to list them.
 */
export const realDataColumns: Migration = {
  version: 4,
  name: 'real-data-columns',
  statements: (context) =>
    TABLES.flatMap(([table, view]) => {
      const schema = TABLE_SCHEMAS[table];
      const dir = path.join(context.lakeRoot, table, ...seedPartitions(schema).map(([k, v]) => `${k}=${v}`));
      mkdirSync(dir, { recursive: true });
      return [
        copyToParquetSql(rawSql(emptyRowsSql(schema)), path.join(dir, REAL_DATA_SEED_FILE)),
        `CREATE OR REPLACE VIEW ${view} AS ${tableViewSql(context.lakeRoot, table)}`,
      ];
    }),
};
