import type { DuckDBConnection } from '@duckdb/node-api';
import { TABLE_SCHEMAS } from './lake-schemas.ts';
import { publishLakeFile } from './lake-writer.ts';
import { SOURCE_TABLES, stageTable, type SourceAdapter, type SourceChunk, type SourceTable } from './source-contract.ts';
import { rawSql, sql, sqlIdent } from './sql.ts';

/**
 * Writing a source's staged chunk into the lake. Which source and how its chunks are scheduled
 * is decided above this layer (sources/ingest.ts); this module only knows the source contract.
 */

export interface IngestProgress {
  source: string;
  doneChunks: number;
  totalChunks: number;
  doneTickers: number;
  totalTickers: number;
  lastChunk: string;
}

export type TableCounts = Record<SourceTable, number>;

export interface ChunkIngestResult {
  chunkId: string;
  rows: TableCounts;
  /** Lake files published, relative to DATA_DIR. */
  files: string[];
}

const ORDER_BY: Record<SourceTable, string> = {
  listings: 'ticker',
  fundamentals: 'ticker, filed_on, period_end',
  prices: 'ticker, date',
  exposures: 'ticker, activity, as_of',
  fund_holdings: 'fund_ticker, as_of, weight DESC',
  splits: 'ticker, ex_date',
};

export function emptyCounts(): TableCounts {
  return { listings: 0, fundamentals: 0, prices: 0, exposures: 0, fund_holdings: 0, splits: 0 };
}

/**
 * The staged table's columns plus a null for each lake column it lacks: a source may leave out
 * optional columns (a sample or a feed written before a column existed).
 */
async function withOptionalColumns(connection: DuckDBConnection, stage: string, table: SourceTable): Promise<string> {
  const described = await connection.runAndReadAll(`DESCRIBE ${sqlIdent(stage)}`);
  const present = new Set(described.getRowObjectsJS().map((r) => String(r.column_name)));
  const missing = TABLE_SCHEMAS[table].columns.filter((c) => !present.has(c.name));
  return ['*', ...missing.map((c) => `CAST(NULL AS ${c.type}) AS ${sqlIdent(c.name)}`)].join(', ');
}

/**
 * Stages one chunk of a source table by table and publishes one Parquet file per (table,
 * market) named `<source>-<chunk id>.parquet`: a retried chunk replaces its own files.
 */
export async function ingestChunkWith(
  connection: DuckDBConnection,
  dataDir: string,
  adapter: SourceAdapter,
  chunk: SourceChunk,
): Promise<ChunkIngestResult> {
  const rows = emptyCounts();
  const files: string[] = [];
  for (const table of SOURCE_TABLES) {
    const stage = `stage_${table}`;
    await stageTable(adapter, table, chunk, { connection, table: stage });
    try {
      const count = await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${sqlIdent(stage)}`);
      rows[table] = Number(count.getRowObjectsJS()[0]?.n ?? 0);
      const key = TABLE_SCHEMAS[table].partitions[0]!.name;
      const columns = await withOptionalColumns(connection, stage, table);
      for (const market of chunk.markets) {
        const from = sql`SELECT ${rawSql(columns)} FROM ${rawSql(sqlIdent(stage))} WHERE ${rawSql(sqlIdent(key))} = ${market}`;
        const target = { table, partitionValues: [market], fileName: `${adapter.name}-${chunk.id}.parquet` };
        files.push(await publishLakeFile(connection, dataDir, target, from, ORDER_BY[table]));
      }
    } finally {
      await connection.run(`DROP TABLE IF EXISTS ${sqlIdent(stage)}`);
    }
  }
  return { chunkId: chunk.id, rows, files };
}
