import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { TABLE_SCHEMAS } from '../lake-schemas.ts';
import { copyToParquetSql, emptyRowsSql, seedPartitions, tableViewSql } from '../lake-sql.ts';
import { rawSql } from '../sql.ts';
import type { Migration } from './migration.ts';

/** Zero-row seed carrying the listings' `domicile` column (docs/frameworks/jewish_halakhic.md). */
export const DOMICILE_SEED_FILE = 'seed-v7-domicile.parquet';

/**
 * Listings gain `domicile`, the issuer's country, from which the halakhic screen presumes who
 * controls the company. Older files lack it; a seed that has it makes them read it as null
 * (`union_by_name`), which the engine takes as unknown, and the view is rebuilt to list it.
 */
export const domicileColumn: Migration = {
  version: 7,
  name: 'domicile-column',
  statements: (context) => {
    const schema = TABLE_SCHEMAS.listings;
    const dir = path.join(context.lakeRoot, 'listings', ...seedPartitions(schema).map(([k, v]) => `${k}=${v}`));
    mkdirSync(dir, { recursive: true });
    return [
      copyToParquetSql(rawSql(emptyRowsSql(schema)), path.join(dir, DOMICILE_SEED_FILE)),
      `CREATE OR REPLACE VIEW universe AS ${tableViewSql(context.lakeRoot, 'listings')}`,
    ];
  },
};
