import type { Logger } from 'pino';
import type { PipelineSource } from '../activities/lake-pipeline-data.ts';
import { sweepDeadWritersTempFiles } from '../activities/maintenance.ts';
import { migrateCatalog } from '../warehouse/catalog.ts';
import type { Config } from './config.ts';
import { startDevServer, type DevServer } from './dev-server.ts';
import type { Lifecycle } from './lifecycle.ts';
import { createMetrics } from '../api/metrics.ts';
import { startApiServer, type RunningApi } from './api-server.ts';
import { ensureRecurringSchedules } from './recurring-schedules.ts';
import { createLazyClient } from './temporal-client.ts';
import { provisionTemporalCli } from './temporal-cli.ts';
import { openServiceDb } from '../service-state/db.ts';
import { serviceStateOf } from './service-state.ts';
import { webhookDepsOf } from './webhooks.ts';
import { WebhookStore } from '../webhooks/webhook-store.ts';

/** The source the worker ingests from, as configured. */
export function pipelineSource(config: Config): PipelineSource {
  return config.DATA_SOURCE === 'sample'
    ? { source: 'sample', scale: config.SAMPLE_SCALE, seed: config.SAMPLE_SEED }
    : { source: config.DATA_SOURCE, path: config.FEED_PATH };
}

export interface RoleContext {
  config: Config;
  logger: Logger;
  lifecycle: Lifecycle;
}

/** Starts the embedded Temporal dev server (SQLite under DATA_DIR) and registers its stop. */
export async function runDevServerRole({ config, logger, lifecycle }: RoleContext): Promise<DevServer> {
  const cli = await provisionTemporalCli(process.env, (line) => logger.info(line));
  logger.info({ origin: cli.origin, path: cli.path }, cli.message);
  const server = await startDevServer({
    cliPath: cli.path,
    dataDir: config.dataDir,
    port: config.TEMPORAL_DEV_PORT,
    uiPort: config.TEMPORAL_UI_PORT,
    namespace: config.TEMPORAL_NAMESPACE,
    warn: (message, fields) => logger.warn(fields, message),
  });
  lifecycle.add('temporal-dev-server', server.stop);
  logger.info({ address: server.address, ui: server.uiUrl, db: server.dbFile }, 'Temporal dev server ready');
  return server;
}

/** Brings the warehouse catalog up to date and clears temp files of writers that died. */
export async function prepareWarehouse({ config, logger }: RoleContext): Promise<void> {
  const swept = await sweepDeadWritersTempFiles(config.dataDir);
  const catalog = await migrateCatalog(config.dataDir);
  logger.info({ catalog: catalog.path, version: catalog.toVersion, applied: catalog.applied, temp_files_swept: swept }, 'warehouse ready');
}

/** Starts a worker polling the task queue; it drains on shutdown. */
export async function runWorkerRole({ config, logger, lifecycle }: RoleContext): Promise<void> {
  // Loaded here, not with the module: the API role never runs a worker, and the worker SDK is a large share of a start.
  const [{ installTemporalRuntime }, { startWorker }] = await Promise.all([import('./temporal-runtime.ts'), import('./worker.ts')]);
  installTemporalRuntime(logger);
  // The worker reads subscriptions and records deliveries in the service state (docs/webhooks.md).
  const serviceDb = await openServiceDb(serviceStateOf(config));
  lifecycle.add('worker-service-state', () => serviceDb.close());
  const webhooks = webhookDepsOf(config, serviceDb);
  const running = await startWorker({
    address: config.temporalAddress,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    dataDir: config.dataDir,
    source: pipelineSource(config),
    logger,
    ...(config.WORKER_ACTIVITY_SLOTS ? { maxConcurrentActivities: config.WORKER_ACTIVITY_SLOTS } : {}),
    webhooks: { store: new WebhookStore(serviceDb), secretKey: webhooks.secretKey, policy: webhooks.policy },
    deliveries: { taskQueue: config.webhookTaskQueue, slots: config.WEBHOOK_DELIVERY_SLOTS },
  });
  lifecycle.add('worker', running.stop);
  logger.info({ task_queue: config.TEMPORAL_TASK_QUEUE, activity_slots: running.slots, address: config.temporalAddress }, 'worker polling');
  await scheduleRecurringRuns({ config, logger, lifecycle });
}

/** Creates or updates the nightly screen's and lake maintenance's Schedules (idempotent), so every start leaves exactly one of each. */
export async function scheduleRecurringRuns({ config, logger }: RoleContext): Promise<void> {
  const { client, close } = createLazyClient({ address: config.temporalAddress, namespace: config.TEMPORAL_NAMESPACE });
  try {
    const outcomes = await ensureRecurringSchedules(client, config);
    logger.info(
      {
        schedules: outcomes,
        nightly_hour: config.NIGHTLY_SCREEN_HOUR,
        maintenance_hour: config.LAKE_MAINTENANCE_HOUR,
        timezone: config.NIGHTLY_SCREEN_TIMEZONE,
      },
      'schedules ready',
    );
  } finally {
    await close();
  }
}

/** Starts the Koa API; it stops taking connections first on shutdown. */
export async function runApiRole({ config, logger, lifecycle }: RoleContext): Promise<RunningApi> {
  const { connection, close } = createLazyClient({ address: config.temporalAddress, namespace: config.TEMPORAL_NAMESPACE });
  const api = await startApiServer({ config, logger, metrics: createMetrics(), temporal: connection });
  lifecycle.add('temporal-client', close);
  lifecycle.add('api', api.close);
  logger.info({ url: api.url }, 'API listening');
  return api;
}
