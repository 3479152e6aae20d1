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
  /** This process's quota meter (spare units go back to service.db at close). */
  meter: QuotaMeter;
  close(): void;
}

export interface AccessOptions {
  dataDir: string;
  /** API_KEY_HASH_SECRET, when the operator manages the secret outside DATA_DIR. */
  hashSecretHex?: string | undefined;
  upgradeUrl: string;
  now?: () => number;
  /** See AccessControlOptions.authCacheMs (default 1,000 ms). */
  authCacheMs?: number;
}

/** Opens service.db and the key-hash secret of `dataDir`: what the API and the CLI share. */
export function openAccess(options: AccessOptions): AccessSetup {
  const db = openServiceDb(options.dataDir);
  // Metering commits often: WAL with synchronous=NORMAL survives a process crash; an OS crash
  // or power cut can lose the last commits (docs/access.md, "Atomicity and durability").
  db.exec('PRAGMA synchronous = NORMAL');
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
    close: () => {
      meter.close();
      db.close();
    },
  };
}
