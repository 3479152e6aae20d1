import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { inLanes } from '../common/lanes.ts';
import { SUBSCRIPTION_LANES, type WebhookRetry } from '../webhooks/delivery-policy.ts';

const { abandonWebhookEvent } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

export interface SubscriptionEvents {
  subscriptionId: string;
  eventIds: string[];
  retry: WebhookRetry;
}

/** Workflow id of one subscription's deliveries of one run: under the run's, so one per run and subscription. */
export function subscriptionDeliveriesWorkflowId(parentWorkflowId: string, subscriptionId: string): string {
  return `${parentWorkflowId}-${subscriptionId}`;
}

/**
 * Delivers one subscription's events of a run, a few at a time, each retried on the worker's
 * schedule for up to a day. A workflow per subscription, so a receiver that fails or hangs holds
 * back only its own events. An attempt is bounded (10 s for the request, 30 s for the activity)
 * and heartbeats, so a timed-out or cancelled attempt stops and frees its slot.
 */
export async function deliverSubscriptionEvents(input: SubscriptionEvents): Promise<{ delivered: number; failed: number }> {
  const { deliverWebhookEvent } = proxyActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    heartbeatTimeout: '5 seconds',
    scheduleToCloseTimeout: input.retry.giveUpAfterMs,
    retry: { initialInterval: input.retry.initialIntervalMs, backoffCoefficient: 2, maximumInterval: input.retry.maximumIntervalMs },
  });
  let delivered = 0;
  let failed = 0;
  await inLanes(input.eventIds.length, SUBSCRIPTION_LANES, async (index) => {
    const eventId = input.eventIds[index]!;
    try {
      if ((await deliverWebhookEvent(eventId)) === 'delivered') delivered += 1;
    } catch {
      failed += 1;
      await abandonWebhookEvent(eventId);
    }
  });
  return { delivered, failed };
}
