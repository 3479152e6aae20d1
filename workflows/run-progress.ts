import type { ChunkOutcome, FailedTicker } from '../activities/pipeline-types.ts';

/** Failed tickers kept in workflow state and answers; the count is always exact. */
export const FAILED_SAMPLE_LIMIT = 200;

export type RunPhase = 'ingesting' | 'planning' | 'screening' | 'done';

/** What the `progress` query answers while a run goes on, and the run's result at the end. */
export interface RunProgress {
  phase: RunPhase;
  date: string;
  totalTickers: number;
  doneTickers: number;
  totalChunks: number;
  doneChunks: number;
  published: number;
  skipped: number;
  failedCount: number;
  failedSample: FailedTicker[];
  /** Every failed ticker, in NDJSON files relative to DATA_DIR (one per chunk that had failures). */
  failedFiles: string[];
}

/** A run's progress before any chunk is done. */
export function emptyProgress(date: string): RunProgress {
  return {
    phase: 'planning',
    date,
    totalTickers: 0,
    doneTickers: 0,
    totalChunks: 0,
    doneChunks: 0,
    published: 0,
    skipped: 0,
    failedCount: 0,
    failedSample: [],
    failedFiles: [],
  };
}

/** Folds a finished chunk into the progress (pure: the workflow and tests share it). */
export function addChunkOutcome(progress: RunProgress, outcome: ChunkOutcome, chunkTickers: number): RunProgress {
  const room = FAILED_SAMPLE_LIMIT - progress.failedSample.length;
  return {
    ...progress,
    doneTickers: progress.doneTickers + chunkTickers,
    doneChunks: progress.doneChunks + 1,
    published: progress.published + outcome.published,
    skipped: progress.skipped + outcome.skipped,
    failedCount: progress.failedCount + (outcome.failedCount ?? outcome.failed.length),
    failedSample: room > 0 ? [...progress.failedSample, ...outcome.failed.slice(0, room)] : progress.failedSample,
    // Progress carried over from a run recorded before failure files existed has none.
    failedFiles: outcome.failedFile ? [...(progress.failedFiles ?? []), outcome.failedFile] : (progress.failedFiles ?? []),
  };
}
