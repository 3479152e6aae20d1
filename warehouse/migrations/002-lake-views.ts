import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { listValue } from '@duckdb/node-api';
import { MARKETS } from '../../common/markets.ts';
import type { LakeTable } from '../lake-paths.ts';
import { SNAPSHOT_FRAMEWORKS, TABLE_SCHEMAS } from '../lake-schemas.ts';
import { copyToParquetSql, emptyRowsSql, seedPartitions, tableViewSql } from '../lake-sql.ts';
import { inlineSql, joinSql, rawSql, sql, type Sql } from '../sql.ts';
import type { Migration, MigrationContext } from './migration.ts';

/** File name of the zero-row seed each table carries in its `_none` partition. */
export const SEED_FILE = 'seed-v2.parquet';

const RELEASED_WITH: readonly LakeTable[] = ['listings', 'fundamentals', 'prices', 'exposures', 'fund_holdings', 'snapshots'];

/**
 * A glob with no files fails in DuckDB, so each table gets a zero-row seed file (in a
 * placeholder partition) before its view is created: an empty table then reads as zero rows.
 */
function seedStatements(context: MigrationContext): Sql[] {
  // The tables this migration was released with; later tables are seeded by their own migration.
  return RELEASED_WITH.map((table) => {
    const schema = TABLE_SCHEMAS[table];
    const dir = path.join(context.lakeRoot, table, ...seedPartitions(schema).map(([k, v]) => `${k}=${v}`));
    mkdirSync(dir, { recursive: true });
    return copyToParquetSql(rawSql(emptyRowsSql(schema)), path.join(dir, SEED_FILE));
  });
}

const VIEW_NAMES: Record<Exclude<LakeTable, 'snapshots' | 'splits' | 'methodology_texts'>, string> = {
  listings: 'universe',
  fundamentals: 'fundamentals',
  prices: 'prices',
  exposures: 'exposures',
  fund_holdings: 'fund_holdings',
};

/** The market list as a view; a view cannot be prepared, so its values are written in as literals. */
function marketsViewSql(): string {
  const rows = MARKETS.map((m) => sql`(${m.marketKey}, ${m.slug}, ${m.name}, ${m.currency}, ${listValue(m.exchanges.map((e) => e.mic))})`);
  const values = joinSql(rows, ', ');
  return `CREATE OR REPLACE VIEW markets AS SELECT * FROM (VALUES ${inlineSql(values)}) AS t(market, slug, name, currency, exchange_mics)`;
}

const statusColumns = SNAPSHOT_FRAMEWORKS.map((id) => `${id}_status`);

/** Views over the lake for researchers, the API and the pipelines. */
export const lakeViews: Migration = {
  version: 2,
  name: 'lake-views',
  statements: (context) => [
    ...seedStatements(context),
    ...Object.entries(VIEW_NAMES).map(
      ([table, view]) => `CREATE OR REPLACE VIEW ${view} AS ${tableViewSql(context.lakeRoot, table as LakeTable)}`,
    ),
    `CREATE OR REPLACE VIEW snapshots AS ${tableViewSql(context.lakeRoot, 'snapshots')}`,
    marketsViewSql(),
    // One verdict per (market, ticker, day): a same-day re-screen supersedes the earlier one.
    `CREATE OR REPLACE VIEW snapshot_days AS SELECT * FROM snapshots
       QUALIFY row_number() OVER (PARTITION BY market, ticker, snapshot_date ORDER BY screened_at DESC, run_id DESC) = 1`,
    `CREATE OR REPLACE VIEW current_verdicts AS SELECT * FROM snapshots
       QUALIFY row_number() OVER (PARTITION BY market, ticker ORDER BY snapshot_date DESC, screened_at DESC, run_id DESC) = 1`,
    `CREATE OR REPLACE VIEW verdict_changes AS
       WITH long AS (
         UNPIVOT (SELECT market, ticker, snapshot_date, ${statusColumns.join(', ')} FROM snapshot_days)
         ON ${statusColumns.join(', ')} INTO NAME status_column VALUE status
       ), ordered AS (
         SELECT market, ticker, replace(status_column, '_status', '') AS framework, snapshot_date, status,
                lag(status) OVER w AS previous_status, lag(snapshot_date) OVER w AS previous_snapshot_date
         FROM long WINDOW w AS (PARTITION BY market, ticker, status_column ORDER BY snapshot_date)
       )
       SELECT market, ticker, framework, previous_status AS from_status, status AS to_status,
              previous_snapshot_date AS previous_snapshot_date, snapshot_date AS changed_on
       FROM ordered WHERE previous_status IS NOT NULL AND previous_status <> status`,
    `CREATE OR REPLACE MACRO verdict_as_of(m, t, d) AS TABLE
       SELECT * FROM snapshots WHERE market = m AND ticker = t AND snapshot_date <= CAST(d AS DATE)
       ORDER BY snapshot_date DESC, screened_at DESC, run_id DESC LIMIT 1`,
    sql`INSERT OR REPLACE INTO catalog_meta VALUES ('lake_root', ${context.lakeRoot})`,
  ],
};
