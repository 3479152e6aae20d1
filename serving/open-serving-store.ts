import { SqliteServingStore, sqliteServingPath } from './sqlite-serving-store.ts';
import type { ServingStore } from './serving-types.ts';

export interface ServingTarget {
  dataDir: string;
  /** PostgreSQL holds the store when set (every API replica reads the same); else `DATA_DIR/serving.db`. */
  databaseUrl?: string | undefined;
}

/** Opens the serving store (creating it and applying pending migrations). */
export async function openServingStore(target: ServingTarget): Promise<ServingStore> {
  if (target.databaseUrl) return (await import('./postgres-serving-store.ts')).openPostgresServingStore(target.databaseUrl);
  return new SqliteServingStore(sqliteServingPath(target.dataDir));
}

/**
 * The store of a `DATA_DIR` as the configuration places it: PostgreSQL when `DATABASE_URL` is
 * set in the environment (as for the service state), else the SQLite file. The lake's writers
 * use it, so every process that publishes snapshots (worker, its chunk threads, CLIs) writes
 * the store the API reads.
 */
export function servingTargetOf(dataDir: string): ServingTarget {
  const databaseUrl = process.env.DATABASE_URL?.trim();
  return databaseUrl ? { dataDir, databaseUrl } : { dataDir };
}

const opened = new Map<string, Promise<ServingStore>>();

/** One store per target per thread, opened on first use and kept (publishes come many times a run). */
export function sharedServingStore(target: ServingTarget): Promise<ServingStore> {
  const key = `${target.databaseUrl ?? ''}|${target.dataDir}`;
  let store = opened.get(key);
  if (store === undefined) {
    store = openServingStore(target);
    opened.set(key, store);
    store.catch(() => opened.delete(key));
  }
  return store;
}

/** Closes the stores `sharedServingStore` opened (a process or test ending). */
export async function closeSharedServingStores(): Promise<void> {
  const stores = [...opened.values()];
  opened.clear();
  await Promise.all(stores.map(async (store) => (await store.catch(() => null))?.close()));
}
