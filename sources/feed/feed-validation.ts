import type { DuckDBConnection } from '@duckdb/node-api';
import { MARKET_KEYS } from '../../common/markets.ts';
import { joinSql, rawSql, readSql, sql, sqlIdent, sqlValueList, type Sql } from '../../warehouse/sql.ts';
import { NO_SCREENED_ACTIVITY } from '../../engine/inputs.ts';
import {
  AS_TRADED,
  EMPTY_ALLOWED,
  FEED_ACTIVITIES,
  FEED_EVIDENCE,
  FEED_INVOLVEMENTS,
  type FeedColumn,
  type FeedTable,
} from './feed-contract.ts';

/** One reason a feed cannot be loaded: the file, the line (1 = CSV header / first Parquet row) and why. */
export interface FeedError {
  file: string;
  line: number;
  reason: string;
}

/** A feed load that found errors: nothing was published. `errors` lists up to 1,000 of `total`. */
export class FeedValidationError extends Error {
  constructor(
    readonly errors: readonly FeedError[],
    readonly total: number,
  ) {
    const shown = errors.slice(0, 20).map((e) => `  ${e.file}:${e.line}: ${e.reason}`);
    super(
      `feed rejected, nothing published: ${total} error(s)\n${shown.join('\n')}${total > shown.length ? `\n  … ${total - shown.length} more` : ''}`,
    );
    this.name = 'FeedValidationError';
  }
}

const value = (col: FeedColumn): Sql => rawSql(`trim(${sqlIdent(col.name)})`);

/**
 * New shares per old share from a trimmed text value: a number ("4", "0.1") or Yahoo's
 * "new:old" text ("4:1", "1:10"; "4/1" too). Null when it is neither.
 */
export function ratioSql(text: Sql): Sql {
  const pair = sql`regexp_extract(${text}, '^(\\d+(?:\\.\\d+)?)\\s*[:/]\\s*(\\d+(?:\\.\\d+)?)$', ['new', 'old'])`;
  return sql`CASE WHEN regexp_full_match(${text}, '\\d+(\\.\\d+)?\\s*[:/]\\s*\\d+(\\.\\d+)?')
    THEN TRY_CAST(${pair}.new AS DOUBLE) / nullif(TRY_CAST(${pair}.old AS DOUBLE), 0)
    ELSE TRY_CAST(${text} AS DOUBLE) END`;
}

/** SQL condition true when a present, non-empty value breaks its column's rule, with the reason. */
function badValue(col: FeedColumn): { condition: Sql; reason: string } {
  const v = value(col);
  switch (col.kind) {
    case 'market':
      return {
        condition: sql`${v} NOT IN ${sqlValueList(MARKET_KEYS)}`,
        reason: `'${col.name}' must be a market key (docs/data/markets.md)`,
      };
    case 'date':
      return {
        condition: sql`NOT regexp_full_match(${v}, '\\d{4}-\\d{2}-\\d{2}') OR TRY_CAST(${v} AS DATE) IS NULL`,
        reason: `'${col.name}' must be a date YYYY-MM-DD`,
      };
    case 'number':
      return {
        condition: sql`TRY_CAST(${v} AS DOUBLE) IS NULL OR NOT isfinite(TRY_CAST(${v} AS DOUBLE))`,
        reason: `'${col.name}' must be a number`,
      };
    case 'non_negative':
      return {
        condition: sql`TRY_CAST(${v} AS DOUBLE) IS NULL OR NOT isfinite(TRY_CAST(${v} AS DOUBLE)) OR TRY_CAST(${v} AS DOUBLE) < 0`,
        reason: `'${col.name}' must be a number >= 0`,
      };
    case 'share':
      return {
        condition: sql`TRY_CAST(${v} AS DOUBLE) IS NULL OR NOT (TRY_CAST(${v} AS DOUBLE) BETWEEN 0 AND 1)`,
        reason: `'${col.name}' must be a number in 0..1`,
      };
    case 'kind':
      return { condition: sql`${v} NOT IN ('stock', 'fund')`, reason: `'${col.name}' must be 'stock' or 'fund'` };
    case 'activity':
      return {
        condition: sql`${v} NOT IN ${sqlValueList(FEED_ACTIVITIES)}`,
        reason: `'${col.name}' must be an activity code (docs/data/activities.md)`,
      };
    case 'boolean':
      return { condition: sql`lower(${v}) NOT IN ('true', 'false')`, reason: `'${col.name}' must be true or false` };
    case 'sic':
      return { condition: sql`NOT regexp_full_match(${v}, '\\d{4}')`, reason: `'${col.name}' must be a 4-digit SIC code` };
    case 'currency':
      return { condition: sql`NOT regexp_full_match(${v}, '[A-Z]{3}')`, reason: `'${col.name}' must be an ISO 4217 code like USD` };
    case 'mic':
      return { condition: sql`NOT regexp_full_match(${v}, '[A-Z0-9]{4}')`, reason: `'${col.name}' must be a 4-character ISO 10383 MIC` };
    case 'country':
      return {
        condition: sql`NOT regexp_full_match(${v}, '[A-Z]{2}')`,
        reason: `'${col.name}' must be an ISO 3166-1 alpha-2 code like US or IL`,
      };
    case 'ratio':
      return {
        condition: sql`${ratioSql(v)} IS NULL OR NOT isfinite(${ratioSql(v)}) OR ${ratioSql(v)} <= 0`,
        reason: `'${col.name}' must be new shares per old share above 0, as a number (4, 0.1) or 'new:old' ('4:1', '1:10')`,
      };
    case 'evidence':
      return {
        condition: sql`${v} NOT IN ${sqlValueList(FEED_EVIDENCE)}`,
        reason: `'${col.name}' must be one of ${FEED_EVIDENCE.join(', ')} (docs/data/activities.md)`,
      };
    case 'involvement':
      return {
        condition: sql`${v} NOT IN ${sqlValueList(FEED_INVOLVEMENTS)}`,
        reason: `'${col.name}' must be one of ${FEED_INVOLVEMENTS.join(', ')} (docs/data/activities.md)`,
      };
    case 'split_basis':
      return {
        condition: sql`${v} <> ${AS_TRADED} AND (NOT regexp_full_match(${v}, '\\d{4}-\\d{2}-\\d{2}') OR TRY_CAST(${v} AS DATE) IS NULL)`,
        reason: `'${col.name}' must be a date YYYY-MM-DD or '${AS_TRADED}'`,
      };
    case 'text':
      return { condition: rawSql('false'), reason: '' };
  }
}

/**
 * One `SELECT <at>, reason` per value rule of the given columns, over a raw all-text table with
 * a `line` column (`at` is `line`, or `file, line` for a table gathered from many files).
 */
export function columnChecksSql(raw: string, columns: readonly FeedColumn[], present: ReadonlySet<string>, at = 'line'): Sql[] {
  const checks: Sql[] = [];
  const where = rawSql(at);
  const table = rawSql(raw);
  for (const col of columns) {
    if (!present.has(col.name)) continue;
    const v = value(col);
    if (col.required && !EMPTY_ALLOWED.has(col.name)) {
      checks.push(sql`SELECT ${where}, ${`'${col.name}' is required`} AS reason FROM ${table} WHERE ${v} IS NULL OR ${v} = ''`);
    }
    const bad = badValue(col);
    if (bad.reason !== '')
      checks.push(
        sql`SELECT ${where}, ${bad.reason} || ', got ''' || ${v} || '''' AS reason FROM ${table} WHERE ${v} <> '' AND (${bad.condition})`,
      );
  }
  return checks;
}

/**
 * A "reviewed: no screened activity" row has revenue_share 0. Beside rows of screened activities
 * on its date it says the review found those and nothing else (docs/data/activities.md).
 */
function noActivityChecksSql(raw: string): Sql[] {
  const none = NO_SCREENED_ACTIVITY;
  return [
    sql`SELECT line,
        'activity ''' || ${none} || ''' (reviewed: no screened activity) needs revenue_share 0, got ''' || trim(revenue_share) || '''' AS reason
      FROM ${rawSql(raw)} WHERE trim(activity) = ${none} AND TRY_CAST(revenue_share AS DOUBLE) <> 0`,
  ];
}

/** One `SELECT line, reason` per rule of the table, over a raw all-text table with a `line` column. */
export function rowChecksSql(raw: string, table: FeedTable, present: ReadonlySet<string>): Sql[] {
  const checks = columnChecksSql(raw, table.columns, present);
  const has = (...names: string[]): boolean => names.every((n) => present.has(n));
  if (table.table === 'listings' && has('market', 'ticker')) {
    checks.push(
      rawSql(`SELECT line, 'duplicate listing ' || market || '/' || ticker || ' (first on line ' || first_line || ')' AS reason FROM (
      SELECT line, market, ticker, min(line) OVER (PARTITION BY market, ticker) AS first_line FROM ${raw}) WHERE line <> first_line`),
    );
  }
  if (table.table === 'fundamentals' && has('period_end', 'filed_on')) {
    checks.push(
      rawSql(
        `SELECT line, 'filed_on is before period_end' AS reason FROM ${raw} WHERE TRY_CAST(filed_on AS DATE) < TRY_CAST(period_end AS DATE)`,
      ),
    );
  }
  if (table.table === 'fund_holdings' && has('fund_market', 'fund_ticker', 'as_of', 'weight')) {
    checks.push(
      rawSql(`SELECT min(line) AS line,
        'weights of fund ' || fund_market || '/' || fund_ticker || ' on ' || as_of || ' sum to ' || round(sum(TRY_CAST(weight AS DOUBLE)), 4)
          || ', more than 1' AS reason
      FROM ${raw} GROUP BY fund_market, fund_ticker, as_of HAVING sum(TRY_CAST(weight AS DOUBLE)) > 1.000001`),
    );
  }
  if (table.table === 'exposures' && has('market', 'ticker', 'as_of', 'activity', 'revenue_share'))
    checks.push(...noActivityChecksSql(raw));
  return checks;
}

/**
 * Runs checks that each select `line, reason` (with `file`, the file they are all about) or
 * `file, line, reason`, and reports every row they find, in file and line order.
 */
export async function reportChecks(
  connection: DuckDBConnection,
  checks: readonly Sql[],
  add: (e: FeedError) => void,
  file?: string,
): Promise<void> {
  if (checks.length === 0) return;
  const at = file === undefined ? rawSql('file, line') : sql`${file} AS file, line`;
  const found = await readSql(connection, sql`SELECT ${at}, reason FROM (${joinSql(checks, ' UNION ALL ')}) ORDER BY file, line, reason`);
  for (const row of found.getRowObjectsJS()) add({ file: String(row.file), line: Number(row.line), reason: String(row.reason) });
}
