import { ActivityFailure, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { LakeCheckpointResult } from '../warehouse/api-reads/api-reads-lake-checkpoint.ts';

const { saveCurrentVerdicts } = proxyActivities<Activities>({
  // The first save of a long history reads every file once (seconds to minutes); it heartbeats.
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 5 },
});

/**
 * Saves the lake's copy of the current verdicts (docs/serving.md, "How the API follows the lake").
 * The copy only spares an API's first start from reading every file, so a save that fails after
 * its retries is logged and the run goes on (null): it never fails the run that published.
 */
export async function saveCurrentVerdictsIfPossible(): Promise<LakeCheckpointResult | null> {
  try {
    return await saveCurrentVerdicts();
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    log.warn("could not save the lake's copy of the current verdicts; an API's first start reads the files instead", {
      error: error.cause?.message ?? error.message,
    });
    return null;
  }
}
