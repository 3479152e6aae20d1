import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, patched, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { FindEventsRequest, FoundEvents } from '../activities/webhooks.ts';
import { inLanes } from '../common/lanes.ts';
import { DELIVERY_LANES } from '../webhooks/delivery-policy.ts';
import { deliverSubscriptionEvents, subscriptionDeliveriesWorkflowId } from './deliver-subscription-events.ts';

const { findWebhookEvents, abandonWebhookEvent } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** Workflow id of a run's deliveries: one per screening run, however often the publishing workflow starts it. */
export function deliveriesWorkflowId(runId: string): string {
  return `webhooks-${runId}`;
}

type Tally = { events: number; delivered: number; failed: number };

/**
 * After a screening run published: finds the status changes its subscribers asked for and
 * starts one child workflow per subscription to deliver them (on the deliveries' own task queue
 * when the worker names one), then waits for all and tallies them. Every attempt is recorded by
 * the activity that made it.
 */
export async function deliverStatusChanges(input: FindEventsRequest): Promise<Tally> {
  const found = await findWebhookEvents(input);
  if (!patched('webhooks-child-per-subscription')) return deliverInLanes(found);
  const runs = await Promise.all(
    (found.bySubscription ?? []).map(async ({ subscriptionId, eventIds }) => {
      try {
        const child = await startChild(deliverSubscriptionEvents, {
          workflowId: subscriptionDeliveriesWorkflowId(workflowInfo().workflowId, subscriptionId),
          ...(found.taskQueue ? { taskQueue: found.taskQueue } : {}),
          args: [{ subscriptionId, eventIds, retry: found.retry }],
          parentClosePolicy: ParentClosePolicy.ABANDON,
        });
        return await child.result();
      } catch (error) {
        // Started already by an earlier pass of this run: that child delivers and counts them.
        if (error instanceof WorkflowExecutionAlreadyStartedError) return { delivered: 0, failed: 0 };
        throw error;
      }
    }),
  );
  return {
    events: found.eventIds.length,
    delivered: runs.reduce((sum, run) => sum + run.delivered, 0),
    failed: runs.reduce((sum, run) => sum + run.failed, 0),
  };
}

/** How runs started before each subscription had its own workflow deliver: four at a time for the whole run. */
async function deliverInLanes({ eventIds, retry }: FoundEvents): Promise<Tally> {
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
