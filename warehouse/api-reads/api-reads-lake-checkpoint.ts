import { openApiReads, type ApiReadsStats } from './api-reads.ts';

/** What a save of the lake's current verdicts did. */
export interface LakeCheckpointResult {
  /** Tickers saved. */
  snapshots: number;
  /** What it began from (the previous copy, the API's, or every file) and how many files it read past that. */
  startedFrom: ApiReadsStats['startedFrom'];
  snapshotFilesLoaded: number;
}

/**
 * Saves the lake's copy of the current verdicts, `DATA_DIR/lake/_current/verdicts.bin` (docs/serving.md,
 * "How the API follows the lake"), so that an API starting without saved verdicts of its own
 * reads only what was published after it. Starts the way the API does (from the furthest saved
 * copy, catching up from the journal and a folder scan), so after the first time it reads only
 * what was published since the last save. Run by the maintenance run after compaction.
 */
export async function saveLakeCheckpoint(dataDir: string): Promise<LakeCheckpointResult> {
  const errors: unknown[] = [];
  const reads = await openApiReads({
    dataDir,
    checkpoint: 'lake',
    sidecars: false,
    followIntervalMs: 0,
    onError: (error) => errors.push(error),
  });
  const stats = reads.stats();
  await reads.close();
  if (errors.length > 0) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  return { snapshots: stats.snapshots, startedFrom: stats.startedFrom, snapshotFilesLoaded: stats.snapshotFilesLoaded };
}
