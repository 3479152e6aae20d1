import { defineQuery, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { continueWith, runChunks, type ChunkedRunState } from './chunked-run.ts';
import { utcDay } from '../engine/dates.ts';
import { runIdFrom } from './run-id.ts';
import { emptyProgress, type RunProgress } from './run-progress.ts';
import { inLanes } from '../common/lanes.ts';
import { startStatusChangeDeliveries } from './after-publish.ts';

const { planSourceIngest, ingestSourceChunk, finishSourceIngest, planScreen } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 10 },
});

/** The `progress` query of pipeline runs: done / total, failures, phase. */
export const progressQuery = defineQuery<RunProgress>('progress');

export interface NightlyScreenInput {
  /** Screening date `YYYY-MM-DD`; defaults to the run's start date (UTC). */
  date?: string;
  /** Market keys to screen; all markets when omitted. */
  markets?: string[];
  /** Re-ingest the latest source data before screening (default true). */
  ingest?: boolean;
  chunkSize?: number;
  concurrency?: number;
  /** Set by the workflow itself when it continues as new. */
  carried?: ChunkedRunState;
}

/** Ingests the latest data, then screens every listing across all 10 frameworks for one date. */
export async function nightlyScreen(input: NightlyScreenInput = {}): Promise<RunProgress> {
  const state: ChunkedRunState = input.carried ?? {
    runId: runIdFrom(workflowInfo().workflowId),
    source: 'nightly',
    plan: { date: input.date ?? utcDay(workflowInfo().startTime.getTime()), totalTickers: 0, chunks: [] },
    dates: [],
    nextChunk: 0,
    concurrency: input.concurrency ?? 2,
    progress: emptyProgress(input.date ?? utcDay(workflowInfo().startTime.getTime())),
  };
  setHandler(progressQuery, () => state.progress);

  if (!input.carried) {
    const date = state.plan.date;
    if (input.ingest ?? true) {
      state.progress = { ...state.progress, phase: 'ingesting' };
      // Only the run date and markets cross Temporal: the worker's configured source fills in the rest.
      const request = { asOf: date, markets: input.markets ?? null };
      const chunks = await planSourceIngest(request);
      await inLanes(chunks.length, state.concurrency, (index) => ingestSourceChunk({ ...request, chunkId: chunks[index]!.id }));
      await finishSourceIngest();
    }
    state.progress = { ...state.progress, phase: 'planning' };
    state.plan = await planScreen({ date, markets: input.markets ?? null, chunkSize: input.chunkSize ?? 5_000 });
    state.dates = [date];
    state.progress = {
      ...state.progress,
      phase: 'screening',
      totalTickers: state.plan.totalTickers,
      totalChunks: state.plan.chunks.length,
    };
  }

  await runChunks(state, (carried) => continueWith(nightlyScreen, { ...input, carried }));
  await startStatusChangeDeliveries(state.runId, input.markets ?? null);
  state.progress = { ...state.progress, phase: 'done' };
  return state.progress;
}
