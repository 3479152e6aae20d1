import { openServingStore, type ServingTarget } from '../serving/open-serving-store.ts';
import { buildUniverseParts, listingColumns, type ListingColumns, type UniverseParts } from './api-reads-universe.ts';

/** Which serving store a universe thread reads the listings of. */
export interface UniverseTask {
  target: ServingTarget;
}

/** The parts as the thread hands them back: the listings as columns (`listingsOfColumns` turns them back). */
export type UniversePartsFromThread = Omit<UniverseParts, 'listings'> & { listings: ListingColumns };

/**
 * Reads the listings and builds the search index's parts (in a worker thread, docs/serving.md,
 * "Current verdicts"): the read, the decoding of its rows and the index's folding, sorting and
 * posting lists all run off the event loop, on a connection to the store of the thread's own.
 */
export async function buildUniverseInThread(task: UniverseTask): Promise<UniversePartsFromThread> {
  const store = await openServingStore(task.target);
  const listings = await store.listings().finally(() => store.close());
  const parts = buildUniverseParts(listings);
  return { ...parts, listings: listingColumns(parts.listings) };
}
