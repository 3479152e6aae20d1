import type { WorkflowHandle } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { provisionTemporalCli } from '../../platform/temporal-cli.ts';

/** A real Temporal dev server started from the provisioned CLI binary (no download). */
export async function startTestTemporal(): Promise<TestWorkflowEnvironment> {
  const cli = await provisionTemporalCli();
  return TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: cli.path }, extraArgs: ['--log-level', 'error'] },
  });
}

/**
 * The workflow's result, or after `ms` a failure naming what it is stuck on: each pending
 * activity with its attempt, state, last worker and last failure, so a hang reads as a cause.
 */
export async function resultWithin<T>(handle: WorkflowHandle, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    const outcome = await Promise.race([handle.result() as Promise<T>, deadline]);
    if (outcome !== 'timeout') return outcome;
  } finally {
    clearTimeout(timer);
  }
  const description = await handle.describe();
  const pending = (description.raw.pendingActivities ?? []).map((activity) => ({
    activity: activity.activityType?.name,
    id: activity.activityId,
    state: activity.state,
    attempt: activity.attempt,
    lastWorker: activity.lastWorkerIdentity,
    lastFailure: activity.lastFailure?.message,
  }));
  throw new Error(
    `workflow ${handle.workflowId} not done after ${ms} ms (status ${description.status.name}); pending activities: ${JSON.stringify(pending, null, 1)}`,
  );
}
