import type { DuckDBConnection } from '@duckdb/node-api';
import { listValue } from '@duckdb/node-api';
import type { LakeFileRows, ServingStore } from '../serving/serving-types.ts';
import type { LakeTable } from './lake-paths.ts';
import { readSql, sql, type Sql } from './sql.ts';
import { heldFileOf } from './lake-files.ts';

/**
 * The lake tables the serving store holds besides snapshots (docs/serving.md, "The serving
 * store"): what the API needs to answer a screen with no lake of its own — a listing's name,
 * the methodology texts a stored result references, a fund's holdings.
 */
export const SERVED_LAKE_TABLES = ['listings', 'fund_holdings', 'methodology_texts'] as const satisfies readonly LakeTable[];
export type ServedLakeTable = (typeof SERVED_LAKE_TABLES)[number];

export function isServedLakeTable(table: LakeTable): table is ServedLakeTable {
  return (SERVED_LAKE_TABLES as readonly string[]).includes(table);
}

const FILE_SQL: Record<ServedLakeTable, (files: ReturnType<typeof listValue>) => Sql> = {
  listings: (files) => sql`
    SELECT CAST(market AS VARCHAR) AS market, ticker, coalesce(name, ticker) AS name, coalesce(exchange_mic, '') AS exchange,
           coalesce(kind, 'stock') AS kind, coalesce(currency, '') AS currency, coalesce(data_source, '') AS data_source
    FROM read_parquet(${files}, hive_partitioning = true, union_by_name = true)
    WHERE ticker IS NOT NULL`,
  fund_holdings: (files) => sql`
    SELECT CAST(fund_market AS VARCHAR) AS fund_market, fund_ticker, strftime(as_of, '%Y-%m-%d') AS as_of,
           CAST(market AS VARCHAR) AS market, ticker, CAST(weight AS DOUBLE) AS weight
    FROM read_parquet(${files}, hive_partitioning = true, union_by_name = true)
    WHERE fund_ticker IS NOT NULL AND as_of IS NOT NULL AND ticker IS NOT NULL AND weight IS NOT NULL`,
  methodology_texts: (files) => sql`
    SELECT DISTINCT text_id, text FROM read_parquet(${files}, union_by_name = true) WHERE text_id IS NOT NULL AND text IS NOT NULL`,
};

/** A lake file's rows of a served table, as the store takes them. */
async function lakeFileRows(connection: DuckDBConnection, table: ServedLakeTable, file: string): Promise<LakeFileRows> {
  const records = (await readSql(connection, FILE_SQL[table](listValue([file])))).getRowObjectsJS();
  const text = (value: unknown) => String(value);
  switch (table) {
    case 'listings':
      return {
        table,
        rows: records.map((r) => ({
          market: text(r.market),
          ticker: text(r.ticker),
          name: text(r.name),
          exchange: text(r.exchange),
          kind: text(r.kind),
          currency: text(r.currency),
          dataSource: text(r.data_source),
        })),
      };
    case 'fund_holdings':
      return {
        table,
        rows: records.map((r) => ({
          fundMarket: text(r.fund_market),
          fundTicker: text(r.fund_ticker),
          asOf: text(r.as_of),
          market: text(r.market),
          ticker: text(r.ticker),
          weight: Number(r.weight),
        })),
      };
    case 'methodology_texts':
      return { table, rows: records.map((r) => ({ textId: text(r.text_id), text: text(r.text) })) };
  }
}

/** Copies one published file of a served lake table into the store (replacing what it held of that file); returns the rows. */
export async function copyLakeTableFile(
  connection: DuckDBConnection,
  dataDir: string,
  table: ServedLakeTable,
  file: string,
  store: ServingStore,
): Promise<number> {
  const held = await heldFileOf(dataDir, file);
  const content = await lakeFileRows(connection, table, file);
  await store.writeLakeFile(held, content);
  return content.rows.length;
}
