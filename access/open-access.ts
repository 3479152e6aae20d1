import type { Middleware } from 'koa';
import { openServiceDb } from '../service-state/db.ts';
import { accessControl } from './access-control.ts';
import { AccessStore } from './access-store.ts';
import { loadKeyHashSecret } from './key-hashing.ts';
import { QuotaMeter } from './meter.ts';

export interface AccessSetup {
  store: AccessStore;
  hashSecret: Buffer;
  /** The middleware list `createApp({ accessControl })` takes. */
  middleware: Middleware[];
  /** This process's quota meter (spare units go back to the service state at close). */
  meter: QuotaMeter;
  close(): Promise<void>;
}

export interface AccessOptions {
  dataDir: string;
  /** DATABASE_URL: the service state on PostgreSQL instead of DATA_DIR/service.db. */
  databaseUrl?: string | undefined;
  /** API_KEY_HASH_SECRET, when the operator manages the secret outside DATA_DIR. */
  hashSecretHex?: string | undefined;
  upgradeUrl: string;
  now?: () => number;
  /** See AccessControlOptions.authCacheMs (default 1,000 ms). */
  authCacheMs?: number;
}

/** Opens the service state and the key-hash secret of `dataDir`: what the API and the CLI share. */
export async function openAccess(options: AccessOptions): Promise<AccessSetup> {
  // Metering commits often: on libsql, WAL with synchronous=NORMAL survives a process crash; an
  // OS crash or power cut can lose the last commits (docs/access.md, "Atomicity and durability").
  const db = await openServiceDb({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, synchronous: 'NORMAL' });
  const store = new AccessStore(db);
  const meter = new QuotaMeter(store);
  const hashSecret = loadKeyHashSecret(options.dataDir, options.hashSecretHex);
  const middleware = [
    accessControl({
      store,
      meter,
      hashSecret,
      upgradeUrl: options.upgradeUrl,
      ...(options.now ? { now: options.now } : {}),
      ...(options.authCacheMs !== undefined ? { authCacheMs: options.authCacheMs } : {}),
    }),
  ];
  return {
    store,
    hashSecret,
    middleware,
    meter,
    close: async () => {
      try {
        await meter.close();
      } finally {
        await db.close();
      }
    },
  };
}
