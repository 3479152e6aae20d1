import { ScheduleAlreadyRunning, type Client, type ScheduleOptions } from '@temporalio/client';

/**
 * Creates a Schedule, or updates its timing and action when it exists, so every start leaves
 * exactly one of each (a paused Schedule stays paused). Returns what it did.
 */
export async function ensureSchedule(client: Client, options: ScheduleOptions): Promise<'created' | 'updated'> {
  try {
    await client.schedule.create(options);
    return 'created';
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  await client.schedule.getHandle(options.scheduleId).update((previous) => ({
    ...previous,
    spec: options.spec,
    action: { ...previous.action, ...options.action },
    policies: { ...previous.policies, ...options.policies },
  }));
  return 'updated';
}
