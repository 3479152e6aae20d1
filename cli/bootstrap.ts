import { WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { HISTORY_START } from '../engine/dates.ts';
import { createProgressView } from './progress-view.ts';
import { watchRun } from './watch-run.ts';
import { hasPublishedFiles } from '../warehouse/lake-files.ts';
import type { RunProgress } from '../workflows/run-progress.ts';

export interface BootstrapOptions {
  client: Client;
  dataDir: string;
  taskQueue: string;
  /** Years of history the first start backfills (0 = none). */
  backfillYears: number;
  today: string;
  logger: Logger;
  /** Stops following the runs (at shutdown); the runs themselves go on in Temporal. */
  signal?: AbortSignal;
}

/** `today` minus whole years, `YYYY-MM-DD` (clamped to the start of history). */
export function yearsBefore(today: string, years: number): string {
  const year = Number(today.slice(0, 4)) - years;
  const from = `${year}-${today.slice(5, 10) === '02-29' ? '02-28' : today.slice(5, 10)}`;
  return from < HISTORY_START ? HISTORY_START : from;
}

/**
 * The first start is the demo: with no snapshot in the warehouse, load the configured source
 * and screen the universe (the API answers as soon as it is published), then backfill recent
 * history. Later starts find snapshots and do nothing. Progress is shown as it goes.
 */
export async function bootstrapWarehouse(options: BootstrapOptions): Promise<'skipped' | 'done'> {
  if (await hasPublishedFiles(options.dataDir, 'snapshots')) {
    options.logger.info('warehouse has snapshots: no first-start bootstrap');
    return 'skipped';
  }
  const run = async (type: 'nightlyScreen' | 'backfill', workflowId: string, args: unknown[]): Promise<RunProgress> => {
    options.logger.info({ workflow: type, workflow_id: workflowId }, 'first start: running');
    const handle = await options.client.workflow.start(type, {
      taskQueue: options.taskQueue,
      workflowId,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      args,
    });
    return watchRun(handle, createProgressView(), options.signal);
  };
  const screen = await run('nightlyScreen', `first-start-screen-${options.today}`, [{ date: options.today }]);
  options.logger.info(
    { published: screen.published, failed: screen.failedCount },
    'first universe screen published: the API serves it now',
  );
  if (options.backfillYears > 0) {
    const from = yearsBefore(options.today, options.backfillYears);
    // Quarter-end: the first day, every quarter end since and today (docs/getting-started.md, "What the first start does").
    const cadence = 'quarter-end';
    options.logger.info(
      { from, to: options.today, cadence },
      `first start: backfilling ${options.backfillYears} years of ${cadence} history`,
    );
    const history = await run('backfill', `first-start-backfill-${from}-${options.today}`, [{ from, to: options.today, cadence }]);
    options.logger.info(
      { from, cadence, published: history.published },
      'first-start backfill done; run `faithscreen backfill --from 2009-01-01 --cadence year-end` for history from 2009',
    );
  }
  return 'done';
}
