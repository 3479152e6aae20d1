import { IdleChildProcess, type IdleTaskResult } from '../../common/idle-child.ts';
import type { HistorySegmentTask } from './api-reads-history-build.ts';
import type { HistoryMergeTask } from './api-reads-history-merge.ts';
import type { HistoryTask } from './api-reads-history-tasks.ts';

/** What a build gets from the index; the child keeps its own cancel flag. */
export type HistoryBuildRequest = Omit<HistorySegmentTask, 'cancel'>;
/** What a merge gets from the index. */
export type HistoryMergeRequest = Omit<HistoryMergeTask, 'cancel'>;
/** A segment's rows, and the builder process's peak RSS (its memory is not the API's). */
export type HistoryBuildResult = IdleTaskResult<{ rows: number }>;

/**
 * The history index's builder process (docs/serving.md, "as_of from the history index"): segment
 * builds and merges run in a child process of the API's own at the lowest CPU priority
 * (common/idle-child.ts), so the sorts' DuckDB instances and their memory live outside the API
 * process and the API's RSS does not grow with the history being indexed. It stays up while
 * tasks keep coming (a backfill announces files every few seconds) and exits when idle. A task
 * stopped by its signal leaves no torn index (a segment is renamed into place only when
 * complete; temp files are swept at a later start).
 */
export class HistoryBuilderProcess {
  private readonly process: IdleChildProcess<HistoryTask, { rows: number }>;

  constructor(options: { idleExitMs?: number } = {}) {
    this.process = new IdleChildProcess({
      module: new URL('./api-reads-history-tasks.ts', import.meta.url),
      what: 'history index segment',
      ...options,
    });
  }

  build(task: HistoryBuildRequest, signal: AbortSignal): Promise<HistoryBuildResult> {
    return this.process.run({ kind: 'build', task }, task.id, signal);
  }

  merge(task: HistoryMergeRequest, signal: AbortSignal): Promise<HistoryBuildResult> {
    return this.process.run({ kind: 'merge', task }, task.id, signal);
  }

  close(): Promise<void> {
    return this.process.close();
  }
}
