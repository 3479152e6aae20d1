import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { TABLE_SCHEMAS } from '../lake-schemas.ts';
import type { LakeTable } from '../lake-paths.ts';
import { copyToParquetSql, emptyRowsSql, seedPartitions, tableViewSql } from '../lake-sql.ts';
import { rawSql } from '../sql.ts';
import type { Migration } from './migration.ts';

/** Zero-row seeds carrying the involvement and Jewish-control columns (docs/data/activities.md). */
export const INVOLVEMENT_SEED_FILE = 'seed-v5-involvement.parquet';

/** The tables that gain a column in this migration, with their view names. */
const TABLES: ReadonlyArray<[LakeTable, string]> = [
  ['exposures', 'exposures'],
  ['listings', 'universe'],
];

/**
 * Exposures gain `involvement` (producer, distributor, retailer, ancillary) and listings
 * `jewish_controlled`. Older files lack them; a seed that has them makes every older file read
 * them as null (`union_by_name`), which the engine takes as "not reported", and the views are
 * rebuilt to list them.
 */
export const involvementColumns: Migration = {
  version: 5,
  name: 'involvement-columns',
  statements: (context) =>
    TABLES.flatMap(([table, view]) => {
      const schema = TABLE_SCHEMAS[table];
      const dir = path.join(context.lakeRoot, table, ...seedPartitions(schema).map(([k, v]) => `${k}=${v}`));
      mkdirSync(dir, { recursive: true });
      return [
        copyToParquetSql(rawSql(emptyRowsSql(schema)), path.join(dir, INVOLVEMENT_SEED_FILE)),
        `CREATE OR REPLACE VIEW ${view} AS ${tableViewSql(context.lakeRoot, table)}`,
      ];
    }),
};
