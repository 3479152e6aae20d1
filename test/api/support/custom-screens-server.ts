import pino from 'pino';
import type { AccessSetup } from '../../../access/open-access.ts';
import { createApp } from '../../../api/app.ts';
import { createMetrics } from '../../../api/metrics.ts';
import { unavailableRefresher } from '../../../api/refresher.ts';
import { openServiceDb, type ServiceDb } from '../../../service-state/db.ts';
import { openApiReads } from '../../../reads/api-reads.ts';
import { PurificationReads } from '../../../warehouse/purification-reads.ts';
import { keyFor, openTestAccess } from '../../support/access.ts';
import { listen } from '../../support/http.ts';
import { testServiceState } from '../../support/service-state.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
export type Json = Record<string, any>;

export interface CustomScreensApi {
  url: string;
  access: AccessSetup;
  db: ServiceDb;
  /** A new account with one pro key. */
  newKey(): Promise<{ key: string; keyId: string; account: string }>;
  call(
    path: string,
    key: string | undefined,
    init?: { method?: string; body?: unknown },
  ): Promise<{ status: number; headers: Headers; body: Json }>;
  close(): Promise<void>;
}

/**
 * The real Koa app over `dataDir` (its lake, possibly empty) with real access control, the
 * portfolio endpoint and the custom-screen endpoints on the test's service state (libsql or PostgreSQL), on an ephemeral port.
 */
export async function serveCustomScreensApi(dataDir: string): Promise<CustomScreensApi> {
  const access = await openTestAccess(dataDir);
  const reads = await openApiReads({ dataDir, followIntervalMs: 0 });
  const db = await openServiceDb(await testServiceState(dataDir));
  const purification = new PurificationReads(dataDir);
  const app = createApp({
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(),
    readiness: {},
    screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
    accessControl: access.middleware,
    customScreens: { db },
    purification: { lake: purification },
    baseUrl: 'http://127.0.0.1',
  });
  const server = await listen(app);
  return {
    url: server.url,
    access,
    db,
    newKey: () => keyFor(access, 'pro'),
    async call(path, key, init = {}) {
      const headers = new Headers();
      if (key !== undefined) headers.set('X-API-Key', key);
      if (init.body !== undefined) headers.set('content-type', 'application/json');
      const response = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers,
        ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
    },
    async close() {
      await server.close();
      await reads.close();
      await purification.close();
      await db.close();
      await access.close();
    },
  };
}
