import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { ScreenPlan } from '../activities/pipeline-types.ts';
import type { SnapshotSource } from '../warehouse/snapshot-schema.ts';
import { addChunkOutcome, type RunProgress } from './run-progress.ts';
import { inLanes } from '../common/lanes.ts';

const { screenChunk } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  // A chunk heartbeats at least every few seconds; a dead worker's chunk is retried after this.
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 10 },
});

/** Chunks finished in one workflow run before it continues as new, keeping histories bounded. */
export const CHUNKS_PER_RUN = 400;

export interface ChunkedRunState {
  runId: string;
  source: SnapshotSource;
  plan: ScreenPlan;
  dates: string[];
  /** Index in `plan.chunks` of the first chunk not yet done. */
  nextChunk: number;
  concurrency: number;
  progress: RunProgress;
}

/**
 * Screens the plan's chunks with bounded concurrency, folding each outcome into `state.progress`
 * (read by the progress query). Before the history grows large it continues as new with the
 * state carried over, via `restart(state)`, which must call the same workflow with the state.
 */
export async function runChunks(state: ChunkedRunState, restart: (state: ChunkedRunState) => Promise<never>): Promise<void> {
  const { chunks } = state.plan;
  const stopAt = Math.min(chunks.length, state.nextChunk + CHUNKS_PER_RUN);
  const start = state.nextChunk;
  await inLanes(stopAt - start, state.concurrency, async (index) => {
    const chunk = chunks[start + index]!;
    const outcome = await screenChunk({ runId: state.runId, source: state.source, chunk, dates: state.dates });
    state.progress = addChunkOutcome(state.progress, outcome, chunk.limit);
  });
  state.nextChunk = stopAt;
  if (stopAt < chunks.length) await restart(state);
}

/** Continue-as-new helper typed for a workflow taking one input object. */
export function continueWith<I>(workflow: (input: I) => Promise<unknown>, input: I): Promise<never> {
  return continueAsNew<typeof workflow>(input);
}
