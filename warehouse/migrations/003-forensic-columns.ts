import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { FUNDAMENTALS_SCHEMA } from '../lake-schemas.ts';
import { copyToParquetSql, emptyRowsSql, seedPartitions, tableViewSql } from '../lake-sql.ts';
import { rawSql } from '../sql.ts';
import type { Migration } from './migration.ts';

/** Zero-row seed carrying every fundamentals column, the forensic inputs (docs/forensic.md) included. */
export const FORENSIC_SEED_FILE = 'seed-v3-forensic.parquet';

/**
 * The fundamentals view lists its columns, so it gains `ppe_net`, `long_term_investments`,
 * `long_term_debt`, `depreciation` and `sga_expense` here. A lake written before them has no
 * file with those columns and the view would not bind; a seed file that has them makes every
 * older file read them as null (`union_by_name`).
 */
export const forensicColumns: Migration = {
  version: 3,
  name: 'forensic-columns',
  statements: (context) => {
    const dir = path.join(context.lakeRoot, 'fundamentals', ...seedPartitions(FUNDAMENTALS_SCHEMA).map(([k, v]) => `${k}=${v}`));
    mkdirSync(dir, { recursive: true });
    return [
      copyToParquetSql(rawSql(emptyRowsSql(FUNDAMENTALS_SCHEMA)), path.join(dir, FORENSIC_SEED_FILE)),
      `CREATE OR REPLACE VIEW fundamentals AS ${tableViewSql(context.lakeRoot, 'fundamentals')}`,
    ];
  },
};
