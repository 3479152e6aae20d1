import type { DuckDBConnection } from '@duckdb/node-api';
import { createSource, type SourceOptions } from '../sources/create-source.ts';
import { SOURCE_TABLES, stageTable, type SourceAdapter, type SourceChunk, type SourceTable } from '../sources/source.ts';
import { migrateCatalog } from './catalog.ts';
import { openDuckDB } from './duckdb.ts';
import { TABLE_SCHEMAS } from './lake-schemas.ts';
import { publishLakeFile } from './lake-writer.ts';
import { sqlIdent, sqlString } from './sql.ts';

export interface IngestOptions extends SourceOptions {
  dataDir: string;
  /** Only these market keys (all markets when null or omitted). */
  markets?: readonly string[] | null;
  /** Chunks ingested at once (each on its own DuckDB connection); default 1. */
  concurrency?: number;
  onProgress?: (progress: IngestProgress) => void;
}

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

export interface IngestSummary {
  source: string;
  synthetic: boolean;
  chunks: number;
  rows: TableCounts;
  files: number;
  seconds: number;
}

const ORDER_BY: Record<SourceTable, string> = {
  listings: 'ticker',
  fundamentals: 'ticker, filed_on, period_end',
  prices: 'ticker, date',
  exposures: 'ticker, activity, as_of',
  fund_holdings: 'fund_ticker, as_of, weight DESC',
  splits: 'ticker, ex_date',
};

function emptyCounts(): TableCounts {
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
export async function ingestChunkWith(connection: DuckDBConnection, dataDir: string, adapter: SourceAdapter, chunk: SourceChunk): Promise<ChunkIngestResult> {
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
        const from = `SELECT ${columns} FROM ${sqlIdent(stage)} WHERE ${sqlIdent(key)} = ${sqlString(market)}`;
        const target = { table, partitionValues: [market], fileName: `${adapter.name}-${chunk.id}.parquet` };
        files.push(await publishLakeFile(connection, dataDir, target, from, ORDER_BY[table]));
      }
    } finally {
      await connection.run(`DROP TABLE IF EXISTS ${sqlIdent(stage)}`);
    }
  }
  return { chunkId: chunk.id, rows, files };
}

/** The chunks an ingest of `options` would run, in order (validates a feed: throws on any bad row). */
export async function planIngest(options: IngestOptions): Promise<SourceChunk[]> {
  const instance = await openDuckDB(':memory:');
  const connection = await instance.connect();
  try {
    return await createSource(options).chunks(connection, options.markets ?? null);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Ingests one chunk by id in a fresh DuckDB: what an ingestion activity runs. */
export async function ingestChunk(options: IngestOptions, chunkId: string): Promise<ChunkIngestResult> {
  const instance = await openDuckDB(':memory:');
  const connection = await instance.connect();
  try {
    const adapter = createSource(options);
    const chunks = await adapter.chunks(connection, options.markets ?? null);
    const chunk = chunks.find((c) => c.id === chunkId);
    if (!chunk) throw new Error(`source ${adapter.name} has no chunk '${chunkId}' (it has ${chunks.length} chunks)`);
    return await ingestChunkWith(connection, options.dataDir, adapter, chunk);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * Loads a whole source into the lake, chunk by chunk, then makes sure the catalog's views
 * exist. Idempotent: running it again with the same options replaces the same files. A feed
 * with any invalid row publishes nothing. The CLI's `faithscreen ingest` calls this.
 */
export async function ingestSource(options: IngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  await migrateCatalog(options.dataDir);
  const instance = await openDuckDB(':memory:');
  const connections: DuckDBConnection[] = [];
  try {
    const adapter = createSource(options);
    const first = await instance.connect();
    connections.push(first);
    const chunks = await adapter.chunks(first, options.markets ?? null);
    // A source keeps what it validated on the connection it planned with; only stateless sources fan out.
    const width = adapter.name === 'sample' ? Math.max(1, options.concurrency ?? 1) : 1;
    while (connections.length < Math.min(width, chunks.length)) connections.push(await instance.connect());
    const totals = emptyCounts();
    const progress: IngestProgress = { source: adapter.name, doneChunks: 0, totalChunks: chunks.length, doneTickers: 0, totalTickers: chunks.reduce((s, c) => s + c.tickers, 0), lastChunk: '' };
    let files = 0;
    let next = 0;
    const worker = async (connection: DuckDBConnection): Promise<void> => {
      while (next < chunks.length) {
        const chunk = chunks[next]!;
        next += 1;
        const result = await ingestChunkWith(connection, options.dataDir, adapter, chunk);
        for (const table of SOURCE_TABLES) totals[table] += result.rows[table];
        files += result.files.length;
        progress.doneChunks += 1;
        progress.doneTickers += chunk.tickers;
        progress.lastChunk = chunk.id;
        options.onProgress?.({ ...progress });
      }
    };
    await Promise.all(connections.map(worker));
    return { source: adapter.name, synthetic: adapter.synthetic, chunks: chunks.length, rows: totals, files, seconds: (performance.now() - started) / 1000 };
  } finally {
    for (const connection of connections) connection.closeSync();
    instance.closeSync();
  }
}
