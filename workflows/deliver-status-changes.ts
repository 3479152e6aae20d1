import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { FindEventsRequest } from '../activities/webhooks.ts';
import { DELIVERY_LANES } from '../webhooks/delivery-policy.ts';
import { inLanes } from '../common/lanes.ts';

const { findWebhookEvents, abandonWebhookEvent } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** Workflow id of a run's deliveries: one per screening run, however often the publishing workflow starts it. */
export function deliveriesWorkflowId(runId: string): string {
  return `webhooks-${runId}`;
}

/**
 * After a screening run published: finds the status changes its subscribers asked for and
 * delivers each event, retrying with exponential backoff for up to a day (the worker's
 * schedule, docs/webhooks.md). Every attempt is recorded by the activity that made it.
 */
export async function deliverStatusChanges(input: FindEventsRequest): Promise<{ events: number; delivered: number; failed: number }> {
  const { eventIds, retry } = await findWebhookEvents(input);
  const { deliverWebhookEvent } = proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    scheduleToCloseTimeout: retry.giveUpAfterMs,
    retry: { initialInterval: retry.initialIntervalMs, backoffCoefficient: 2, maximumInterval: retry.maximumIntervalMs },
  });
  let delivered = 0;
  let failed = 0;
  await inLanes(eventIds.length, DELIVERY_LANES, async (index) => {
    const eventId = eventIds[index]!;
    try {
      if ((await deliverWebhookEvent(eventId)) === 'delivered') delivered += 1;
    } catch {
      failed += 1;
      await abandonWebhookEvent(eventId);
    }
  });
  return { events: eventIds.length, delivered, failed };
}
