/**
 * Entry of a chunk worker thread (run by the pool in `chunk-runner.ts`): screens one chunk
 * against the lake with its own DuckDB instance, reports progress on the port it was given and
 * stops at the next progress point once the port says the activity was cancelled.
 */
import type { MessagePort } from 'node:worker_threads';
import { createLakePipelineData } from './lake-pipeline-data.ts';
import type { ChunkOutcome, ScreenChunkRequest } from './pipeline-types.ts';
import { screenChunkWork } from './screen-chunk.ts';

export interface ChunkThreadTask {
  dataDir: string;
  request: ScreenChunkRequest;
  /** Carries progress details (strings) out and `CANCEL` in. */
  port: MessagePort;
  /** No reuse across dates and no snapshot file index (`ThreadedChunkRunnerOptions.fromScratch`). */
  fromScratch?: boolean;
}

/** The message that cancels a running chunk. */
export const CANCEL = 'cancel';

/**
 * One DuckDB thread per chunk: the pool already runs a chunk per core, and DuckDB's own threads
 * on top of that only contended (docs/pipelines.md).
 */
const DUCKDB_THREADS = 1;

export default async function screenChunkInThread(task: ChunkThreadTask): Promise<ChunkOutcome> {
  const cancelled = new AbortController();
  task.port.on('message', (message) => {
    if (message === CANCEL) cancelled.abort(new Error(`chunk ${task.request.chunk.market} #${task.request.chunk.index} cancelled`));
  });
  const deps = {
    dataDir: task.dataDir,
    data: createLakePipelineData(task.dataDir, { threads: DUCKDB_THREADS, fileIndex: task.fromScratch !== true }),
    writeThreads: DUCKDB_THREADS,
    reuseAcrossDates: task.fromScratch !== true,
  };
  try {
    return await screenChunkWork(deps, task.request, (detail) => {
      cancelled.signal.throwIfAborted();
      task.port.postMessage(detail);
    });
  } finally {
    task.port.close();
  }
}
