import { ActivityFailure, log, proxyActivities } from '@temporalio/workflow';

/**
 * The step that saved the lake's copy of the current verdicts, kept only so that runs recorded
 * with it replay: the API reads its verdicts from the serving store and nothing reads that copy.
 * No worker registers the activity any more (its output has no reader): replay takes its result
 * from the history, and a run that had already scheduled it when workers changed fails it after
 * its retries (`NotFoundError`), which is caught below, so that run still completes.
 */
interface RecordedActivities {
  saveCurrentVerdicts(): Promise<unknown>;
}

const { saveCurrentVerdicts } = proxyActivities<RecordedActivities>({
  // The options these runs scheduled it with.
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 5 },
});

/** Replays the save of a run recorded with it; a failure is logged and the run goes on, as it did then. */
export async function replayCurrentVerdictsSave(): Promise<void> {
  try {
    await saveCurrentVerdicts();
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    log.warn("the lake's copy of the current verdicts was not saved (no longer kept)", {
      error: error.cause?.message ?? error.message,
    });
  }
}
