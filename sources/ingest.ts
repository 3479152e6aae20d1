import type { DuckDBConnection } from '@duckdb/node-api';
import { inLanes } from '../common/lanes.ts';
import { migrateCatalog } from '../warehouse/catalog.ts';
import { openDuckDB } from '../warehouse/duckdb.ts';
import { emptyCounts, ingestChunkWith, type ChunkIngestResult, type IngestProgress, type TableCounts } from '../warehouse/ingest.ts';
import { SOURCE_TABLES, type SourceChunk } from '../warehouse/source-contract.ts';
import { createSource, type SourceOptions } from './create-source.ts';

/** Loading a configured source into the lake: planning its chunks and ingesting them (docs/data/sources.md). */

export interface IngestOptions extends SourceOptions {
  dataDir: string;
  /** Only these market keys (all markets when null or omitted). */
  markets?: readonly string[] | null;
  /** Chunks ingested at once (each on its own DuckDB connection); default 1. */
  concurrency?: number;
  onProgress?: (progress: IngestProgress) => void;
}

export interface IngestSummary {
  source: string;
  synthetic: boolean;
  chunks: number;
  rows: TableCounts;
  files: number;
  seconds: number;
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
    const progress: IngestProgress = {
      source: adapter.name,
      doneChunks: 0,
      totalChunks: chunks.length,
      doneTickers: 0,
      totalTickers: chunks.reduce((s, c) => s + c.tickers, 0),
      lastChunk: '',
    };
    let files = 0;
    await inLanes(chunks.length, connections.length, async (index, lane) => {
      const chunk = chunks[index]!;
      const result = await ingestChunkWith(connections[lane]!, options.dataDir, adapter, chunk);
      for (const table of SOURCE_TABLES) totals[table] += result.rows[table];
      files += result.files.length;
      progress.doneChunks += 1;
      progress.doneTickers += chunk.tickers;
      progress.lastChunk = chunk.id;
      options.onProgress?.({ ...progress });
    });
    return {
      source: adapter.name,
      synthetic: adapter.synthetic,
      chunks: chunks.length,
      rows: totals,
      files,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    for (const connection of connections) connection.closeSync();
    instance.closeSync();
  }
}
