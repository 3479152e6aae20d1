import { Context } from '@temporalio/activity';

/** Reports progress to Temporal and stops the activity promptly when it has been cancelled. */
export function beat(details: unknown): void {
  const context = Context.current();
  context.heartbeat(details);
  context.cancellationSignal.throwIfAborted();
}
