import type { Command } from 'commander';
import { utcDay } from '../../engine/dates.ts';
import { getConfig, type Config } from '../../platform/config.ts';
import { accessOptionsOf } from '../../platform/service-state.ts';
import { createLazyClient } from '../../platform/temporal-client.ts';
import { ensureDemoKey } from '../../access/demo-key.ts';
import { openAccess } from '../../access/open-access.ts';
import { bootstrapWarehouse } from '../bootstrap.ts';
import { Lifecycle } from '../../platform/lifecycle.ts';
import { createLogger } from '../../platform/logger.ts';
import { prepareWarehouse, runApiRole, runDevServerRole, runWorkerRole, type RoleContext } from '../../platform/roles.ts';
import { lowerWorkerPriority, reportToParent, startWorkerProcess } from '../../platform/worker-process.ts';

function context(): RoleContext {
  const config = getConfig();
  const logger = createLogger(config.LOG_LEVEL);
  return { config, logger, lifecycle: new Lifecycle(logger) };
}

/** Runs `body`, then waits for SIGINT/SIGTERM; a failure at start stops what did start. */
async function serve(body: (ctx: RoleContext) => Promise<void>): Promise<void> {
  const ctx = context();
  const stopped = ctx.lifecycle.untilSignal();
  try {
    await body(ctx);
  } catch (error) {
    ctx.logger.error({ err: error }, 'start-up failed');
    await ctx.lifecycle.shutdown('start-up failed');
    process.exitCode = 1;
    return;
  }
  await stopped;
}

/** Runs the first-start bootstrap in the background; its failure is logged, never fatal to the service. */
async function firstStart(ctx: RoleContext): Promise<void> {
  const { client, close } = createLazyClient({ address: ctx.config.temporalAddress, namespace: ctx.config.TEMPORAL_NAMESPACE });
  const abort = new AbortController();
  let following: Promise<unknown> = Promise.resolve();
  // At shutdown: stop following first, wait for the call in flight, then close the connection.
  ctx.lifecycle.add('bootstrap-client', async () => {
    abort.abort();
    await following.catch(() => undefined);
    await close();
  });
  try {
    following = bootstrapWarehouse({
      client,
      dataDir: ctx.config.dataDir,
      taskQueue: ctx.config.TEMPORAL_TASK_QUEUE,
      backfillYears: ctx.config.BOOTSTRAP_BACKFILL_YEARS,
      today: utcDay(new Date()),
      logger: ctx.logger,
      signal: abort.signal,
    });
    await following;
  } catch (error) {
    if (abort.signal.aborted) {
      ctx.logger.info('stopped following the first-start runs; they continue in Temporal and resume at the next start');
      return;
    }
    ctx.logger.error({ err: error }, 'first-start bootstrap did not finish; run `faithscreen screen-universe` when ready');
  }
}

/** The sample demo's API key file (created on the first start), or null when the service has its own accounts. */
async function demoKeyFile(ctx: { config: Config }): Promise<string | null> {
  const access = await openAccess(accessOptionsOf(ctx.config));
  try {
    return await ensureDemoKey(access, ctx.config.dataDir);
  } finally {
    await access.close();
  }
}

/** `start`, `dev-server`, `worker`, `api`: the product's long-running roles. */
export function registerServeCommands(program: Command): void {
  program
    .command('start')
    .description('run everything: a Temporal dev server (unless TEMPORAL_ADDRESS is set), a worker process and the API')
    .action(() =>
      serve(async (ctx) => {
        const dev = ctx.config.embeddedTemporal ? await runDevServerRole(ctx) : undefined;
        await prepareWarehouse(ctx);
        // The worker runs in its own process at a lower CPU priority, so screens and backfills do
        // not hold up the API's event loop (docs/operations.md, *CPU priority of the worker*).
        const worker = startWorkerProcess({
          env: { ...process.env, TEMPORAL_ADDRESS: dev?.address ?? ctx.config.temporalAddress },
          logger: ctx.logger,
        });
        // Registered before it is ready, so a signal while it starts stops it too.
        ctx.lifecycle.add('worker-process', worker.stop);
        await worker.ready;
        const api = await runApiRole(ctx);
        const demoKey = ctx.config.DATA_SOURCE === 'sample' ? await demoKeyFile(ctx) : null;
        const lines = [
          '',
          'faithscreen is running',
          `  API          ${api.url}  (health: ${api.url}/healthz)`,
          `  Temporal UI  ${dev ? dev.uiUrl : "(your cluster's UI)"}  (frontend ${ctx.config.temporalAddress})`,
          `  Warehouse    ${ctx.config.dataDir}/warehouse.duckdb  (open read-only with DuckDB)`,
          ...(demoKey ? [`  API key      in ${demoKey}  (demo account, pro tier; send it as X-API-Key)`] : []),
          '  Stop with Ctrl-C.',
          '',
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
        void firstStart(ctx);
      }),
    );
  program
    .command('dev-server')
    .description('run only the embedded Temporal dev server (SQLite under DATA_DIR)')
    .action(() => serve(async (ctx) => void (await runDevServerRole(ctx))));
  program
    .command('worker')
    .description('run only a Temporal worker for the faithscreen task queue (at CPU priority WORKER_NICE)')
    .action(() =>
      serve(async (ctx) => {
        const parent = reportToParent((reason) => ctx.lifecycle.shutdown(reason));
        lowerWorkerPriority(ctx.config.WORKER_NICE, ctx.logger);
        await prepareWarehouse(ctx);
        await runWorkerRole(ctx);
        parent.ready();
      }),
    );
  program
    .command('api')
    .description('run only the Koa API')
    .action(() =>
      serve(async (ctx) => {
        await prepareWarehouse(ctx);
        await runApiRole(ctx);
      }),
    );
}
