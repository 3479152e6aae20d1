import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { CurrentBatchBuilder, type CurrentBatch } from './api-reads-batch.ts';
import { streamCurrent } from './api-reads-lake.ts';
import { openDuckDB } from '../duckdb.ts';

/** Which files a load thread reads; `close` (no files) closes the thread's DuckDB instance now. */
export interface LoadTask {
  files: string[];
  close?: boolean;
}

/**
 * How long the thread keeps its DuckDB instance after a load. Opening one costs about as much CPU
 * as reading four published files (docs/serving.md, "How the API follows the lake"): a stream of
 * publishes (a backfill) reuses it, and an API with nothing new to read frees its memory.
 */
export const KEEP_OPEN_MS = 5_000;

let open: { instance: DuckDBInstance; connection: DuckDBConnection } | null = null;
let closeTimer: NodeJS.Timeout | null = null;
let instancesOpened = 0;

async function connection(): Promise<DuckDBConnection> {
  if (closeTimer) clearTimeout(closeTimer);
  closeTimer = null;
  if (!open) {
    const instance = await openDuckDB(':memory:', { threads: 2 });
    const connection = await instance.connect();
    instancesOpened += 1;
    open = { instance, connection };
    await connection.run(`SET memory_limit = '256MB'; SET parquet_metadata_cache = false; SET enable_external_file_cache = false`);
  }
  return open.connection;
}

/** Closes the thread's DuckDB instance, if open (its memory goes with it). */
export function closeLoadInstance(): void {
  if (closeTimer) clearTimeout(closeTimer);
  closeTimer = null;
  const current = open;
  open = null;
  current?.connection.closeSync();
  current?.instance.closeSync();
}

/** How many DuckDB instances this thread has opened (a stream of loads shares one). */
export function loadInstancesOpened(): number {
  return instancesOpened;
}

/**
 * Reads each ticker's newest snapshot in the files (in a worker thread, docs/serving.md "How the API
 * follows the lake"): the DuckDB query and the decoding of its rows into a `CurrentBatch`, in a
 * DuckDB instance of the thread's own, closed once no load has come for `KEEP_OPEN_MS`.
 */
export async function loadCurrentBatch(task: LoadTask): Promise<CurrentBatch> {
  const builder = new CurrentBatchBuilder();
  if (task.close) {
    closeLoadInstance();
    return builder.finish();
  }
  if (task.files.length === 0) return builder.finish();
  try {
    await streamCurrent(await connection(), task.files, (raw) => builder.add(raw));
  } catch (error) {
    // A failed read may leave the instance in any state: the next load starts from a new one.
    closeLoadInstance();
    throw error;
  }
  closeTimer = setTimeout(closeLoadInstance, KEEP_OPEN_MS);
  closeTimer.unref();
  return builder.finish();
}

export default loadCurrentBatch;
