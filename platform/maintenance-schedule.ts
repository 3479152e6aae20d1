import { ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import { ensureSchedule } from './ensure-schedule.ts';

/** The one Schedule that starts `lakeMaintenance` (sweep, compaction, catalog). */
export const MAINTENANCE_SCHEDULE_ID = 'faithscreen-lake-maintenance';

export interface MaintenanceScheduleSettings {
  /** Hour of the day (0–23), by default two hours after the nightly screen's. */
  hour: number;
  timezone: string;
  taskQueue: string;
}

/** The Schedule's definition: daily at `hour` in `timezone`, never overlapping, catching up a missed day. */
export function maintenanceScheduleOptions(settings: MaintenanceScheduleSettings): ScheduleOptions {
  return {
    scheduleId: MAINTENANCE_SCHEDULE_ID,
    spec: { calendars: [{ hour: settings.hour, minute: 0 }], timezone: settings.timezone },
    action: {
      type: 'startWorkflow',
      workflowType: 'lakeMaintenance',
      // Temporal appends the scheduled time, e.g. lake-maintenance-2026-11-21T04:00:00Z.
      workflowId: 'lake-maintenance',
      taskQueue: settings.taskQueue,
      args: [{}],
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
    memo: { purpose: 'faithscreen lake maintenance: temp-file sweep, snapshot compaction, catalog migration' },
  };
}

/** Creates the maintenance Schedule, or updates its time and queue when it exists (idempotent; a paused Schedule stays paused). */
export function ensureMaintenanceSchedule(client: Client, settings: MaintenanceScheduleSettings): Promise<'created' | 'updated'> {
  return ensureSchedule(client, maintenanceScheduleOptions(settings));
}
