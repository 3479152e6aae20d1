import { randomBytes } from 'node:crypto';
import { InvalidArgumentError, type Command } from 'commander';
import { WorkflowIdConflictPolicy } from '@temporalio/client';
import { HISTORY_START, utcDay } from '../../engine/dates.ts';
import { getConfig } from '../../platform/config.ts';
import { RECURRING_SCHEDULES, type RecurringSchedule } from '../../platform/recurring-schedules.ts';
import { runsOnTaskQueue } from '../../platform/visibility-query.ts';
import { CADENCES, type Cadence } from '../../workflows/cadence.ts';
import { connectCliClient } from '../temporal.ts';
import { summarise, watchRun } from '../watch-run.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** commander parser for `YYYY-MM-DD` options. */
export function parseDate(value: string): string {
  if (!DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new InvalidArgumentError(`expected a date as YYYY-MM-DD, got "${value}"`);
  }
  return value;
}

/** commander parser for comma-separated market keys. */
export function parseMarkets(value: string): string[] {
  const markets = value
    .split(',')
    .map((m) => m.trim().toLowerCase())
    .filter(Boolean);
  if (markets.length === 0 || markets.some((m) => !/^[a-z0-9_]+$/.test(m))) {
    throw new InvalidArgumentError(`expected market keys separated by commas, e.g. us,gb; got "${value}"`);
  }
  return markets;
}

function parseCadence(value: string): Cadence {
  if (!(CADENCES as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${CADENCES.join(', ')}`);
  return value as Cadence;
}

const SCHEDULE_ACTIONS = ['pause', 'resume', 'trigger', 'show'];

function scheduleNames(): string {
  return Object.entries(RECURRING_SCHEDULES)
    .map(([name, id]) => `${name} (${id})`)
    .join(', ');
}

/** commander parser for the short name of a recurring Schedule. */
export function parseScheduleName(value: string): RecurringSchedule {
  if (!Object.hasOwn(RECURRING_SCHEDULES, value))
    throw new InvalidArgumentError(`expected one of ${Object.keys(RECURRING_SCHEDULES).join(', ')}; got "${value}"`);
  return value as RecurringSchedule;
}

/** `screen-universe`, `backfill`, `runs`, `schedule`: the data engineers' pipeline commands. */
export function registerPipelineCommands(program: Command): void {
  program
    .command('screen-universe')
    .description('screen the whole universe now (the nightly job, on demand) and follow its progress')
    .option('--date <YYYY-MM-DD>', 'screening date (default: today, UTC)', parseDate)
    .option('--markets <keys>', 'only these markets, e.g. us,gb', parseMarkets)
    .option('--no-ingest', 'screen the data already in the lake without re-ingesting')
    .action(async (options: { date?: string; markets?: string[]; ingest: boolean }) => {
      const { client, close } = await connectCliClient();
      try {
        const date = options.date ?? utcDay(new Date());
        const handle = await client.workflow.start('nightlyScreen', {
          taskQueue: getConfig().TEMPORAL_TASK_QUEUE,
          workflowId: `screen-universe-${date}-${randomBytes(3).toString('hex')}`,
          args: [{ date, markets: options.markets, ingest: options.ingest }],
        });
        process.stderr.write(`started ${handle.workflowId}\n`);
        process.stdout.write(`${summarise(await watchRun(handle))}\n`);
      } finally {
        await close();
      }
    });

  program
    .command('backfill')
    .description('screen history on a cadence; resumable: what is already published is skipped')
    .option('--from <YYYY-MM-DD>', 'first date, itself a snapshot date (default 2009-01-01)', parseDate)
    .option('--to <YYYY-MM-DD>', 'last date (default today, UTC)', parseDate)
    .option('--markets <keys>', 'only these markets, e.g. us,gb', parseMarkets)
    .option('--cadence <cadence>', `snapshot dates after --from: one of ${CADENCES.join(', ')}`, parseCadence, 'year-end' as Cadence)
    .action(async (options: { from?: string; to?: string; markets?: string[]; cadence: Cadence }) => {
      const { client, close } = await connectCliClient();
      try {
        const to = options.to ?? utcDay(new Date());
        const from = options.from ?? HISTORY_START;
        if (from > to) throw new Error(`--from ${from} is after --to ${to}`);
        const scope = options.markets?.join('_') ?? 'all';
        const handle = await client.workflow.start('backfill', {
          taskQueue: getConfig().TEMPORAL_TASK_QUEUE,
          // The same range attaches to a run already going instead of starting a second one.
          workflowId: `backfill-${options.cadence}-${from}-${to}-${scope}`,
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          args: [{ from, to, cadence: options.cadence, markets: options.markets }],
        });
        process.stderr.write(`running ${handle.workflowId}\n`);
        process.stdout.write(`${summarise(await watchRun(handle))}\n`);
      } finally {
        await close();
      }
    });

  program
    .command('runs')
    .description('list recent pipeline runs, or describe one with its progress')
    .option('--id <workflowId>', 'describe this run')
    .option('--limit <n>', 'how many runs to list', (v) => Number.parseInt(v, 10), 20)
    .action(async (options: { id?: string; limit: number }) => {
      const { client, close } = await connectCliClient();
      try {
        if (options.id) {
          const handle = client.workflow.getHandle(options.id);
          const d = await handle.describe();
          const progress = await handle.query('progress').catch(() => null);
          const line = {
            id: d.workflowId,
            type: d.type,
            status: d.status.name,
            started: d.startTime,
            closed: d.closeTime ?? null,
            progress,
          };
          process.stdout.write(`${JSON.stringify(line, null, 2)}\n`);
          return;
        }
        let shown = 0;
        for await (const run of client.workflow.list({ query: runsOnTaskQueue(getConfig().TEMPORAL_TASK_QUEUE) })) {
          process.stdout.write(`${run.status.name.padEnd(12)} ${run.type.padEnd(16)} ${run.startTime.toISOString()}  ${run.workflowId}\n`);
          shown += 1;
          if (shown >= options.limit) break;
        }
        if (shown === 0) process.stdout.write('no runs yet\n');
      } finally {
        await close();
      }
    });

  program
    .command('schedule')
    .description(`pause, resume, trigger or show a recurring Schedule: ${scheduleNames()}`)
    .argument('<action>', 'pause | resume | trigger | show')
    .argument(
      '[schedule]',
      `${Object.keys(RECURRING_SCHEDULES).join(' | ')} (default nightly; show without it shows every Schedule)`,
      parseScheduleName,
    )
    .option('--note <text>', 'why (recorded on pause/resume)')
    .action(async (action: string, name: RecurringSchedule | undefined, options: { note?: string }) => {
      if (!SCHEDULE_ACTIONS.includes(action))
        throw new InvalidArgumentError(`unknown action "${action}": use ${SCHEDULE_ACTIONS.join(', ')}`);
      const { client, close } = await connectCliClient();
      try {
        const names =
          action === 'show' && name === undefined ? (Object.keys(RECURRING_SCHEDULES) as RecurringSchedule[]) : [name ?? 'nightly'];
        const shown = [];
        for (const each of names) {
          const handle = client.schedule.getHandle(RECURRING_SCHEDULES[each]);
          if (action === 'pause') await handle.pause(options.note ?? 'paused from the faithscreen CLI');
          else if (action === 'resume') await handle.unpause(options.note ?? 'resumed from the faithscreen CLI');
          else if (action === 'trigger') await handle.trigger();
          const d = await handle.describe();
          shown.push({
            name: each,
            id: d.scheduleId,
            paused: d.state.paused,
            note: d.state.note ?? null,
            next_runs: d.info.nextActionTimes.slice(0, 3),
            recent: d.info.recentActions.slice(-3).map((a) => a.action.workflow.workflowId),
          });
        }
        process.stdout.write(`${JSON.stringify(shown.length === 1 ? shown[0] : shown, null, 2)}\n`);
      } finally {
        await close();
      }
    });
}
