import { readSql } from '../sql.ts';
import { withDuckDB } from '../duckdb.ts';
import { listingsOfRows } from './api-reads-lake.ts';
import { listingsSql } from './api-reads-sql.ts';
import { buildUniverseParts, listingColumns, type ListingColumns, type UniverseParts } from './api-reads-universe.ts';

/** Which lake a universe thread reads. */
export interface UniverseTask {
  dataDir: string;
}

/** The parts as the thread hands them back: the listings as columns (`listingsOfColumns` turns them back). */
export type UniversePartsFromThread = Omit<UniverseParts, 'listings'> & { listings: ListingColumns };

/**
 * Reads the listings and builds the search index's parts (in a worker thread, docs/serving.md "How
 * the API follows the lake"): the query, the decoding of its rows and the index's folding,
 * sorting and posting lists all run off the event loop, in a DuckDB instance of the thread's own.
 */
export async function buildUniverseInThread(task: UniverseTask): Promise<UniversePartsFromThread> {
  const listings = await withDuckDB(':memory:', { threads: 1 }, async (connection) => {
    await connection.run(`SET memory_limit = '128MB'`);
    return listingsOfRows((await readSql(connection, listingsSql(task.dataDir))).getRowsJS());
  });
  const parts = buildUniverseParts(listings);
  return { ...parts, listings: listingColumns(parts.listings) };
}
