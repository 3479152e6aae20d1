import { joinSql, sql, type Sql } from '../../warehouse/sql.ts';

/**
 * Rules across the files of a delivery (docs/data/feed-contract.md): each query selects
 * `file, line, reason`. Inputs are SQL over the raw, all-text rows.
 */

/**
 * A split (market, ticker, ex_date) is given once across the `splits` files and split-event
 * files; the first one in `keys` order is kept in the message as the original.
 */
export function duplicateSplitsSql(keys: readonly Sql[]): Sql {
  const parts = keys.map((k, i) => sql`SELECT ${i} AS part, * FROM (${k})`);
  return sql`SELECT file, line, 'duplicate split ' || market || '/' || ticker || ' on ' || ex_date || ' (first at ' || first_at || ')' AS reason FROM (
    SELECT file, line, market, ticker, ex_date, first(file || ':' || line ORDER BY part, line) OVER (PARTITION BY market, ticker, ex_date) AS first_at
    FROM (${joinSql(parts, ' UNION ALL ')})) WHERE file || ':' || line <> first_at`;
}

/**
 * A ticker's prices come from one place: the `prices` table or its daily file, never both,
 * since the two may be on different split bases.
 */
export function pricesTwiceSql(tableTickers: readonly Sql[], dailyTickers: Sql): Sql {
  return sql`SELECT d.file, 0 AS line,
      d.market || '/' || d.ticker || ' also has rows in ' || t.file
        || ': give each ticker''s prices in one place (their split bases may differ)' AS reason
    FROM (${dailyTickers}) d
    JOIN (SELECT market, ticker, min(file) AS file FROM (${joinSql(tableTickers, ' UNION ALL ')}) GROUP BY market, ticker) t USING (market, ticker)`;
}
