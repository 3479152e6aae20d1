import { CurrentBatchBuilder, type CurrentBatch } from './api-reads-batch.ts';
import { streamCurrent } from './api-reads-lake.ts';
import { withDuckDB } from '../duckdb.ts';

/** Which files a load thread reads. */
export interface LoadTask {
  files: string[];
}

/**
 * Reads each ticker's newest snapshot in the files (in a worker thread, docs/api.md "How the API
 * follows the lake"): the DuckDB query and the decoding of its rows into a `CurrentBatch`, in a
 * DuckDB instance of the thread's own, closed after so its memory goes with it.
 */
export async function loadCurrentBatch(task: LoadTask): Promise<CurrentBatch> {
  const builder = new CurrentBatchBuilder();
  await withDuckDB(':memory:', { threads: 2 }, async (connection) => {
    // No footers kept: a start reads each file of a long history once.
    await connection.run(`SET memory_limit = '256MB'; SET parquet_metadata_cache = false; SET enable_external_file_cache = false`);
    await streamCurrent(connection, task.files, (raw) => builder.add(raw));
  });
  return builder.finish();
}

export default loadCurrentBatch;
