import type { Client } from '@temporalio/client';
import type { Config } from './config.ts';
import { ensureMaintenanceSchedule, MAINTENANCE_SCHEDULE_ID } from './maintenance-schedule.ts';
import { ensureNightlySchedule, NIGHTLY_SCHEDULE_ID } from './nightly-schedule.ts';

/** The Schedules every start creates or updates, by the short name the CLI takes. */
export const RECURRING_SCHEDULES = { nightly: NIGHTLY_SCHEDULE_ID, maintenance: MAINTENANCE_SCHEDULE_ID } as const;
export type RecurringSchedule = keyof typeof RECURRING_SCHEDULES;

export type ScheduleTimes = Pick<
  Config,
  'NIGHTLY_SCREEN_HOUR' | 'NIGHTLY_SCREEN_TIMEZONE' | 'LAKE_MAINTENANCE_HOUR' | 'TEMPORAL_TASK_QUEUE'
>;

/** Creates or updates every recurring Schedule (idempotent); returns what was done to each, by Schedule id. */
export async function ensureRecurringSchedules(client: Client, config: ScheduleTimes): Promise<Record<string, 'created' | 'updated'>> {
  const common = { timezone: config.NIGHTLY_SCREEN_TIMEZONE, taskQueue: config.TEMPORAL_TASK_QUEUE };
  return {
    [NIGHTLY_SCHEDULE_ID]: await ensureNightlySchedule(client, { ...common, hour: config.NIGHTLY_SCREEN_HOUR }),
    [MAINTENANCE_SCHEDULE_ID]: await ensureMaintenanceSchedule(client, { ...common, hour: config.LAKE_MAINTENANCE_HOUR }),
  };
}
