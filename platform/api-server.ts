import { access, constants } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client, type Connection } from '@temporalio/client';
import type { Logger } from 'pino';
import { AccountUserStore } from '../access/account-user-store.ts';
import { AccountAuth } from '../access/account-users.ts';
import { signInKeyFrom } from '../access/sign-in-limits.ts';
import { openAccess } from '../access/open-access.ts';
import { csrfKeyFrom } from '../api/account/csrf.ts';
import { createApp } from '../api/app.ts';
import { createTemporalRefresher } from '../api/temporal-refresher.ts';
import { openServiceDb } from '../service-state/db.ts';
import { accessOptionsOf, serviceStateOf } from './service-state.ts';
import { openApiReads } from '../reads/api-reads.ts';
import { ForensicReads } from '../warehouse/forensic-reads.ts';
import { PurificationReads } from '../warehouse/purification-reads.ts';
import { catalogPath, lakeRoot } from '../warehouse/lake-paths.ts';
import type { Config } from './config.ts';
import type { Metrics } from '../api/metrics.ts';
import { DEFAULT_RENDER_THREADS, threadedReportRenderer } from '../api/report-renderer.ts';
import { checkTemporal } from './temporal-client.ts';
import { webhookDepsOf } from './webhooks.ts';
import { WebhookStore } from '../webhooks/webhook-store.ts';

export interface ApiServerDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  temporal: Connection;
}

export interface RunningApi {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Readiness of the warehouse: the catalog and the lake are there and readable. */
export async function checkWarehouse(dataDir: string): Promise<void> {
  try {
    await access(catalogPath(dataDir), constants.R_OK);
    await access(lakeRoot(dataDir), constants.R_OK);
  } catch (error) {
    throw new Error(`warehouse not readable: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Connections the kernel queues for the API before it accepts them (Node's default is 511): a
 * burst of a few thousand (a sign-in flood) is queued rather than dropped, so the SYNs of real
 * clients arriving beside it are not dropped and retried seconds later. The kernel caps it at
 * net.core.somaxconn (4096 on current Linux).
 */
export const API_LISTEN_BACKLOG = 4_096;

/** Starts the Koa API on HOST:PORT and returns its URL and a graceful close. */
export async function startApiServer(deps: ApiServerDeps): Promise<RunningApi> {
  const { config, logger } = deps;
  let reported = 0;
  const reads = await openApiReads({
    dataDir: config.dataDir,
    onError: (err) => logger.error({ err }, 'API reads: a background step failed (following the store)'),
    // The first start after an upgrade copies the lake into the serving store: say how far it is.
    onServingProgress: (done, total, rows) => {
      if (done < total && performance.now() - reported < 5_000) return;
      reported = performance.now();
      logger.info({ files: done, of: total, snapshots: rows }, 'serving store: copying lake files it does not hold');
    },
  });
  const sync = reads.stats().servingSync;
  if (sync && sync.filesCopied > 0)
    logger.info(
      { files: sync.filesCopied, snapshots: sync.rowsCopied, seconds: Math.round(sync.ms / 100) / 10 },
      'serving store: built from the lake',
    );
  const forensic = new ForensicReads(config.dataDir);
  const purification = new PurificationReads(config.dataDir);
  const client = new Client({ connection: deps.temporal, namespace: config.TEMPORAL_NAMESPACE });
  // Attestations keep their own connection: on libsql it stays synchronous=FULL (a certificate answered with 200 is on disk).
  const serviceDb = await openServiceDb(serviceStateOf(config));
  const access = await openAccess(accessOptionsOf(config));
  const accountAuth = new AccountAuth({
    store: new AccountUserStore(serviceDb),
    accessStore: access.store,
    signInKey: signInKeyFrom(access.hashSecret),
  });
  // In the background: the first sign-in with an unknown email must not take longer than a wrong password.
  accountAuth.prepare().catch((err: unknown) => logger.error({ err }, 'account sign-in could not prepare its stand-in hash'));
  // Made here, not by the screen service, so the API's close ends its threads.
  const renderer = threadedReportRenderer(DEFAULT_RENDER_THREADS);
  const app = createApp({
    logger,
    metrics: deps.metrics,
    readiness: {
      temporal: () => checkTemporal(deps.temporal),
      warehouse: () => checkWarehouse(config.dataDir),
    },
    screen: {
      reads,
      refresher: createTemporalRefresher({ client, taskQueue: config.TEMPORAL_TASK_QUEUE, logger }),
      cache: { freshDays: config.CACHE_FRESH_DAYS, staleWhileRevalidateDays: config.CACHE_STALE_WHILE_REVALIDATE_DAYS },
      prerenderReports: true,
      renderer,
    },
    accessControl: access.middleware,
    accountPages: {
      store: access.store,
      hashSecret: access.hashSecret,
      contact: config.UPGRADE_CONTACT,
      webhooks: new WebhookStore(serviceDb),
      meter: access.meter,
    },
    attest: { db: serviceDb, dataDir: config.dataDir },
    account: {
      auth: accountAuth,
      csrfKey: csrfKeyFrom(access.hashSecret),
      trustProxy: config.TRUST_PROXY,
      trustedProxyHops: config.TRUST_PROXY_HOPS,
    },
    forensic: { lake: forensic },
    webhooks: webhookDepsOf(config, serviceDb),
    customScreens: { db: serviceDb },
    purification: { lake: purification },
    baseUrl: config.baseUrl,
    trustedProxyHops: config.TRUST_PROXY ? config.TRUST_PROXY_HOPS : 0,
  });
  const server = app.listen({ port: deps.config.PORT, host: deps.config.HOST, backlog: API_LISTEN_BACKLOG });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = deps.config.HOST === '0.0.0.0' ? '127.0.0.1' : deps.config.HOST;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }).finally(async () => {
        await access.close();
        await serviceDb.close();
        await reads.close();
        await renderer.close();
        await forensic.close();
        await purification.close();
      }),
  };
}
