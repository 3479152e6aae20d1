import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { TABLE_SCHEMAS } from '../../warehouse/lake-schemas.ts';
import { emptyRowsSql } from '../../warehouse/lake-sql.ts';
import { joinSql, rawSql, runSql, sql, sqlIdent, type Sql } from '../../warehouse/sql.ts';
import type { SourceAdapter, SourceChunk, SourceTable, StageTarget } from '../../warehouse/source-contract.ts';
import { FEED_TABLES, feedTableOf, type FeedTable } from './feed-contract.ts';
import { duplicateSplitsSql, pricesTwiceSql } from './feed-cross-checks.ts';
import { DAILY_PRICES_DIR, loadDailyPrices } from './feed-daily-prices.ts';
import { loadRaw } from './feed-read.ts';
import { SPLIT_EVENTS_DIR, loadSplitEvents } from './feed-split-events.ts';
import { FeedValidationError, ratioSql, reportChecks, rowChecksSql, type FeedError } from './feed-validation.ts';

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

/** Typed rows of one table in the lake's layout (partition column first), from every file of the table. */
function typedSql(table: FeedTable, loaded: readonly LoadedFile[]): Sql {
  const schema = TABLE_SCHEMAS[table.table];
  const partition = schema.partitions[0]!.name;
  const known = new Set(table.columns.map((c) => c.name));
  const parts = loaded.map((l) => {
    const provided = new Set([...l.columns].filter((c) => known.has(c)));
    const columns = schema.columns.map((col) => {
      const name = rawSql(sqlIdent(col.name));
      const type = rawSql(col.type);
      if (col.name === 'data_source') return rawSql(`'feed' AS data_source`);
      if (col.name === 'synthetic') return rawSql('false AS synthetic');
      const lineRef = sql`${`feed:${path.basename(l.file)}:`} || line`;
      if (col.name === 'source_ref' && table.table === 'splits')
        return sql`coalesce(${rawSql(provided.has('source_ref') ? `nullif(trim(source_ref), '')` : 'NULL')}, ${lineRef}) AS source_ref`;
      if (col.name === 'source_ref' && !provided.has('source_ref')) return rawSql(`NULL AS source_ref`);
      if (!provided.has(col.name)) return sql`CAST(NULL AS ${type}) AS ${name}`;
      if (col.name === 'source_ref' && table.table === 'listings')
        return sql`coalesce(nullif(trim(source_ref), ''), ${lineRef}) AS source_ref`;
      if (table.columns.find((c) => c.name === col.name)?.kind === 'ratio') return sql`${ratioSql(sql`trim(${name})`)} AS ${name}`;
      return sql`CAST(nullif(trim(${name}), '') AS ${type}) AS ${name}`;
    });
    const key = rawSql(sqlIdent(partition));
    return sql`SELECT trim(${key}) AS ${key}, ${joinSql(columns, ', ')} FROM ${rawSql(l.raw)}`;
  });
  return joinSql(parts, ' UNION ALL BY NAME ');
}

/** Reads and checks every contract table file of the delivery's top folder (`names` sorted). */
async function loadTableFiles(
  connection: DuckDBConnection,
  folder: string,
  names: readonly string[],
  add: (e: FeedError) => void,
): Promise<LoadedFile[]> {
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
    await reportChecks(connection, rowChecksSql(raw, table, new Set(columns)), add, name);
    loaded.push({ file, table, raw, columns: new Set(columns) });
  }
  return loaded;
}

/** `file, line, market, ticker, <column>` (text) of every row of the given files of a table. */
function keysSql(files: readonly LoadedFile[], column: string): Sql[] {
  const name = rawSql(sqlIdent(column));
  return files.map(
    (l) =>
      sql`SELECT ${path.basename(l.file)} AS file, line, trim(market) AS market, trim(ticker) AS ticker, trim(${name}) AS ${name}
        FROM ${rawSql(l.raw)}`,
  );
}

/**
 * A vendor-feed delivery folder of CSV or Parquet files, plus per-ticker daily price and
 * split-event files (docs/data/feed-contract.md). The whole delivery is validated when it is
 * planned; any error rejects the load before anything is published. A delivery is one chunk
 * named after its folder.
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
    const loaded = await loadTableFiles(connection, folder, names, add);
    const daily = await loadDailyPrices(connection, folder, add);
    const events = await loadSplitEvents(connection, folder, add);
    const filesOf = (table: SourceTable): LoadedFile[] => loaded.filter((l) => l.table.table === table);
    const splitKeys = [...keysSql(filesOf('splits'), 'ex_date'), ...(events ? [events.keys] : [])];
    const cross: Sql[] = [];
    if (splitKeys.length > 0) cross.push(duplicateSplitsSql(splitKeys));
    if (daily && filesOf('prices').length > 0) cross.push(pricesTwiceSql(keysSql(filesOf('prices'), 'date'), daily.tickers));
    await reportChecks(connection, cross, add);
    if (loaded.length === 0 && !daily && !events && total === 0) {
      const expected = [
        ...FEED_TABLES.map((t) => `${t.table}.csv|parquet`),
        `${DAILY_PRICES_DIR}/<market>/<TICKER>.csv`,
        `${SPLIT_EVENTS_DIR}/<market>/<TICKER>.csv`,
      ];
      add({ file: folder, line: 0, reason: `no feed files: expected ${expected.join(', ')}` });
    }
    if (total > 0) throw new FeedValidationError(errors, total);
    const extra: Partial<Record<SourceTable, Sql>> = { prices: daily?.rows, splits: events?.rows };
    const markets = new Set<string>();
    for (const table of FEED_TABLES) {
      const files = filesOf(table.table);
      const parts = [...(files.length > 0 ? [typedSql(table, files)] : []), ...(extra[table.table] ? [extra[table.table]!] : [])];
      if (parts.length === 0) continue;
      present.add(table.table);
      const schema = TABLE_SCHEMAS[table.table];
      const key = sqlIdent(schema.partitions[0]!.name);
      const ordered = [key, ...schema.columns.map((c) => sqlIdent(c.name))].join(', ');
      await runSql(
        connection,
        sql`CREATE OR REPLACE TEMP TABLE ${rawSql(typed(table.table))} AS
          SELECT ${rawSql(ordered)} FROM (${joinSql(parts, ' UNION ALL BY NAME ')})`,
      );
      for (const row of (await connection.runAndReadAll(`SELECT DISTINCT ${key} AS m FROM ${typed(table.table)}`)).getRowObjectsJS())
        markets.add(String(row.m));
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
