import { patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { backfillChunkSize, cadenceDates, type Cadence } from './cadence.ts';
import { continueWith, runChunks, type ChunkedRunState } from './chunked-run.ts';
import { progressQuery } from './nightly-screen.ts';
import { HISTORY_START, utcDay } from '../engine/dates.ts';
import { emptyProgress, type RunProgress } from './run-progress.ts';
import { replayCurrentVerdictsSave } from './save-current-verdicts.ts';

const { planScreen } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** Marks runs that saved the lake's copy of the current verdicts at their end (those recorded before replay without it). */
export const BACKFILL_SAVES_CURRENT_VERDICTS_PATCH = 'backfill-saves-current-verdicts';

/** Marks runs that end without saving the lake's copy of the current verdicts (nothing reads it). */
export const BACKFILL_SKIPS_CURRENT_VERDICTS_PATCH = 'backfill-skips-current-verdicts';

export interface BackfillInput {
  from?: string;
  to?: string;
  cadence?: Cadence;
  markets?: string[];
  /** Listings per chunk (default: `backfillChunkSize` of the number of dates). */
  chunkSize?: number;
  concurrency?: number;
  carried?: ChunkedRunState;
}

/**
 * Screens the universe on every cadence date in [from, to] and publishes snapshots with source
 * `backfill`. Resumable: snapshots already published for a (ticker, date) are skipped, so
 * re-running a range does nothing for what is done.
 */
export async function backfill(input: BackfillInput = {}): Promise<RunProgress> {
  const to = input.to ?? utcDay(workflowInfo().startTime.getTime());
  const from = input.from ?? HISTORY_START;
  const state: ChunkedRunState = input.carried ?? {
    // The run id names the range, not the workflow, so a re-run of the range finds its own files.
    runId: `backfill-${input.cadence ?? 'year-end'}`,
    source: 'backfill',
    plan: { date: to, totalTickers: 0, chunks: [] },
    dates: cadenceDates(from, to, input.cadence ?? 'year-end'),
    nextChunk: 0,
    concurrency: input.concurrency ?? 2,
    progress: emptyProgress(to),
  };
  setHandler(progressQuery, () => state.progress);
  if (!input.carried) {
    state.plan = await planScreen({
      date: to,
      markets: input.markets ?? null,
      chunkSize: input.chunkSize ?? backfillChunkSize(state.dates.length),
    });
    state.progress = {
      ...state.progress,
      phase: 'screening',
      totalTickers: state.plan.totalTickers,
      totalChunks: state.plan.chunks.length,
    };
  }
  await runChunks(state, (carried) => continueWith(backfill, { ...input, carried }));
  // A run recorded with the save holds its marker and not the skip's, so it replays the save; every new run records the skip.
  if (!patched(BACKFILL_SKIPS_CURRENT_VERDICTS_PATCH) && patched(BACKFILL_SAVES_CURRENT_VERDICTS_PATCH)) {
    await replayCurrentVerdictsSave();
  }
  state.progress = { ...state.progress, phase: 'done' };
  return state.progress;
}
