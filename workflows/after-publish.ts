import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, patched, startChild } from '@temporalio/workflow';
import { deliverStatusChanges, deliveriesWorkflowId } from './deliver-status-changes.ts';

/**
 * Starts the webhook deliveries of a run that just published, without waiting for them: they
 * may retry for a day, and outlive the publishing workflow (ABANDON). Behind a patch marker so
 * runs recorded before webhooks existed replay unchanged.
 */
export async function startStatusChangeDeliveries(runId: string, markets: string[] | null): Promise<void> {
  if (!patched('webhooks-after-publish')) return;
  try {
    await startChild(deliverStatusChanges, {
      workflowId: deliveriesWorkflowId(runId),
      args: [{ runId, markets }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    // A retried publisher finds its deliveries already started: nothing more to do.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
