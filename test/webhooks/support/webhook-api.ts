import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { createApp } from '../../../api/app.ts';
import { createMetrics } from '../../../api/metrics.ts';
import { unavailableRefresher, type Refresher } from '../../../api/refresher.ts';
import type { AccessSetup } from '../../../access/open-access.ts';
import { openServiceDb, type ServiceDb } from '../../../service-state/db.ts';
import type { TargetPolicy } from '../../../webhooks/target-policy.ts';
import { openApiReads, type ApiReads } from '../../../reads/api-reads.ts';
import { listen } from '../../support/http.ts';
import { testServiceState } from '../../support/service-state.ts';

export interface WebhookApi {
  url: string;
  db: ServiceDb;
  reads: ApiReads;
  secretKey: Buffer;
  close(): Promise<void>;
}

/**
 * The real Koa app over `dataDir` (its lake, possibly empty) with real access control and the
 * webhook endpoints on the test's service state, served on an ephemeral loopback port.
 */
export async function serveWebhookApi(
  dataDir: string,
  access: AccessSetup,
  policy: TargetPolicy,
  options: { refresher?: Refresher; secretKey?: Buffer } = {},
): Promise<WebhookApi> {
  const reads = await openApiReads({ dataDir, followIntervalMs: 0 });
  const db = await openServiceDb(await testServiceState(dataDir));
  const secretKey = options.secretKey ?? randomBytes(32);
  const app = createApp({
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(),
    readiness: {},
    screen: { reads, refresher: options.refresher ?? unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
    accessControl: access.middleware,
    webhooks: { db, secretKey, policy },
    baseUrl: 'http://127.0.0.1',
  });
  const server = await listen(app);
  return {
    url: server.url,
    db,
    reads,
    secretKey,
    async close() {
      await server.close();
      await reads.close();
      await db.close();
    },
  };
}
