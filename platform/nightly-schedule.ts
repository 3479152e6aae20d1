import { ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import { ensureSchedule } from './ensure-schedule.ts';

/** The one Schedule that starts the nightly universe screen. */
export const NIGHTLY_SCHEDULE_ID = 'faithscreen-nightly-screen';

export interface NightlyScheduleSettings {
  hour: number;
  timezone: string;
  taskQueue: string;
}

/** The Schedule's definition: nightly at `hour` in `timezone`, never overlapping, catching up a missed day. */
export function nightlyScheduleOptions(settings: NightlyScheduleSettings): ScheduleOptions {
  return {
    scheduleId: NIGHTLY_SCHEDULE_ID,
    spec: { calendars: [{ hour: settings.hour, minute: 0 }], timezone: settings.timezone },
    action: {
      type: 'startWorkflow',
      workflowType: 'nightlyScreen',
      // Temporal appends the scheduled time, e.g. nightly-screen-2026-11-21T02:00:00Z.
      workflowId: 'nightly-screen',
      taskQueue: settings.taskQueue,
      args: [{}],
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
    memo: { purpose: 'faithscreen nightly universe screen across all 10 frameworks' },
  };
}

/**
 * Creates the nightly Schedule, or updates its time and queue when it exists (idempotent; a
 * paused Schedule stays paused). Returns whether it was created.
 */
export function ensureNightlySchedule(client: Client, settings: NightlyScheduleSettings): Promise<'created' | 'updated'> {
  return ensureSchedule(client, nightlyScheduleOptions(settings));
}
