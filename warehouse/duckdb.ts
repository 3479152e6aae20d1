import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export interface OpenOptions {
  readOnly?: boolean;
  /** DuckDB worker threads; defaults to DuckDB's own choice (all cores). */
  threads?: number;
}

/** Opens a DuckDB instance (a file path or `:memory:`) with explicit options. Close it when done. */
export async function openDuckDB(target: string, options: OpenOptions = {}): Promise<DuckDBInstance> {
  const config: Record<string, string> = {};
  if (options.readOnly) config.access_mode = 'READ_ONLY';
  if (options.threads !== undefined) config.threads = String(options.threads);
  return DuckDBInstance.create(target, config);
}

/** Runs `work` on a fresh connection of a fresh instance, closing both afterwards. */
export async function withDuckDB<T>(target: string, options: OpenOptions, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await openDuckDB(target, options);
  const connection = await instance.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
