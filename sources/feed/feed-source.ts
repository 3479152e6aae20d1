import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { TABLE_SCHEMAS } from '../../warehouse/lake-schemas.ts';
import { emptyRowsSql } from '../../warehouse/lake-sql.ts';
import { sqlIdent, sqlString } from '../../warehouse/sql.ts';
import type { SourceAdapter, SourceChunk, SourceTable, StageTarget } from '../source.ts';
import { FEED_TABLES, feedTableOf, type FeedTable } from './feed-contract.ts';
import { FeedValidationError, rowChecksSql, type FeedError } from './feed-validation.ts';

const MAX_LISTED_ERRORS = 1_000;

/** Id of a delivery from its folder name: loading the same folder again replaces what it loaded. */
export function feedDeliveryId(folder: string): string {
  const id = path.basename(path.resolve(folder)).replace(/[^A-Za-z0-9_.-]/g, '_');
  return id.length > 0 ? id : 'delivery';
}

interface LoadedFile {
  file: string;
  table: FeedTable;
  raw: string;
  columns: ReadonlySet<string>;
}

async function loadRaw(connection: DuckDBConnection, file: string, raw: string): Promise<string[]> {
  // Every value is read as text so the contract, not the reader's guesses, decides what is valid.
  // CSV line = row position + 2 (the header is line 1); Parquet line = row number from 1.
  const read = file.endsWith('.csv')
    ? `SELECT *, (row_number() OVER () + 1)::INTEGER AS line FROM read_csv(${sqlString(file)}, header = true, all_varchar = true, auto_detect = true, parallel = false)`
    : `SELECT COLUMNS(c -> c <> 'file_row_number')::VARCHAR, (file_row_number + 1)::INTEGER AS line FROM read_parquet(${sqlString(file)}, file_row_number = true)`;
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${raw} AS ${read}`);
  const columns = (await connection.runAndReadAll(`SELECT column_name FROM (DESCRIBE ${raw})`)).getRowObjectsJS();
  return columns.map((c) => String(c.column_name)).filter((c) => c !== 'line');
}

/** Typed rows of one table in the lake's layout (partition column first), from every file of the table. */
function typedSql(table: FeedTable, loaded: readonly LoadedFile[]): string {
  const schema = TABLE_SCHEMAS[table.table];
  const partition = schema.partitions[0]!.name;
  const known = new Set(table.columns.map((c) => c.name));
  const parts = loaded.map((l) => {
    const provided = new Set([...l.columns].filter((c) => known.has(c)));
    const columns = schema.columns.map((col) => {
      const name = sqlIdent(col.name);
      if (col.name === 'data_source') return `'feed' AS data_source`;
      if (col.name === 'synthetic') return 'false AS synthetic';
      if (col.name === 'source_ref' && !provided.has('source_ref')) return `NULL AS source_ref`;
      if (!provided.has(col.name)) return `CAST(NULL AS ${col.type}) AS ${name}`;
      if (col.name === 'source_ref' && table.table === 'listings') {
        return `coalesce(nullif(trim(source_ref), ''), ${sqlString(`feed:${path.basename(l.file)}:`)} || line) AS source_ref`;
      }
      return `CAST(nullif(trim(${name}), '') AS ${col.type}) AS ${name}`;
    });
    return `SELECT trim(${sqlIdent(partition)}) AS ${sqlIdent(partition)}, ${columns.join(', ')} FROM ${l.raw}`;
  });
  return parts.join(' UNION ALL BY NAME ');
}

/**
 * A vendor-feed delivery folder of CSV or Parquet files (docs/data/feed-contract.md). The whole
 * delivery is validated when it is planned; any error rejects the load before anything is
 * published. A delivery is one chunk named after its folder.
 */
export function createFeedSource(folder: string): SourceAdapter {
  const id = feedDeliveryId(folder);
  const typed = (table: SourceTable): string => sqlIdent(`feed_${id}_${table}`);
  const present = new Set<SourceTable>();

  async function validate(connection: DuckDBConnection): Promise<string[]> {
    let names: string[];
    try {
      names = (await readdir(folder)).sort();
    } catch (error) {
      throw new FeedValidationError([{ file: folder, line: 0, reason: `cannot read the feed folder: ${(error as Error).message}` }], 1);
    }
    const errors: FeedError[] = [];
    let total = 0;
    const add = (e: FeedError): void => {
      total += 1;
      if (errors.length < MAX_LISTED_ERRORS) errors.push(e);
    };
    const loaded: LoadedFile[] = [];
    for (const [n, name] of names.entries()) {
      const table = FEED_TABLES.find((t) => t.table === feedTableOf(name));
      if (!table) continue;
      const file = path.join(folder, name);
      const raw = sqlIdent(`feed_raw_${n}`);
      let columns: string[];
      try {
        columns = await loadRaw(connection, file, raw);
      } catch (error) {
        add({ file: name, line: 0, reason: `unreadable ${table.table} file: ${(error as Error).message.split('\n')[0]}` });
        continue;
      }
      const missing = table.columns.filter((c) => c.required && !columns.includes(c.name)).map((c) => c.name);
      if (missing.length > 0) {
        add({ file: name, line: 1, reason: `missing required column(s) ${missing.join(', ')} of ${table.table}` });
        continue;
      }
      const checks = rowChecksSql(raw, table, new Set(columns));
      if (checks.length > 0) {
        const found = (await connection.runAndReadAll(`SELECT line, reason FROM (${checks.join(' UNION ALL ')}) ORDER BY line, reason`)).getRowObjectsJS();
        for (const row of found) add({ file: name, line: Number(row.line), reason: String(row.reason) });
      }
      loaded.push({ file, table, raw, columns: new Set(columns) });
    }
    if (loaded.length === 0 && total === 0) add({ file: folder, line: 0, reason: `no feed files: expected ${FEED_TABLES.map((t) => `${t.table}.csv|parquet`).join(', ')}` });
    if (total > 0) throw new FeedValidationError(errors, total);
    const markets = new Set<string>();
    for (const table of FEED_TABLES) {
      const files = loaded.filter((l) => l.table === table);
      if (files.length === 0) continue;
      present.add(table.table);
      await connection.run(`CREATE OR REPLACE TEMP TABLE ${typed(table.table)} AS ${typedSql(table, files)}`);
      const key = sqlIdent(TABLE_SCHEMAS[table.table].partitions[0]!.name);
      for (const row of (await connection.runAndReadAll(`SELECT DISTINCT ${key} AS m FROM ${typed(table.table)}`)).getRowObjectsJS()) markets.add(String(row.m));
    }
    return [...markets].sort();
  }

  const stage = (table: SourceTable) => async (_chunk: SourceChunk, target: StageTarget) => {
    const schema = TABLE_SCHEMAS[table];
    const body = present.has(table)
      ? `SELECT * FROM ${typed(table)}`
      : `SELECT CAST(NULL AS VARCHAR) AS ${sqlIdent(schema.partitions[0]!.name)}, * FROM (${emptyRowsSql(schema)})`;
    await target.connection.run(`CREATE OR REPLACE TEMP TABLE ${sqlIdent(target.table)} AS ${body}`);
  };

  return {
    name: 'feed',
    synthetic: false,
    async chunks(connection, markets) {
      const found = await validate(connection);
      const wanted = markets ? found.filter((m) => markets.includes(m)) : found;
      if (wanted.length === 0) return [];
      return [{ id: id, markets: wanted, tickers: 0 }];
    },
    listings: stage('listings'),
    fundamentals: stage('fundamentals'),
    prices: stage('prices'),
    exposures: stage('exposures'),
    fundHoldings: stage('fund_holdings'),
    splits: stage('splits'),
  };
}
