import { buildHistorySegment, type HistorySegmentTask } from './api-reads-history-build.ts';
import { mergeHistorySegments, type HistoryMergeTask } from './api-reads-history-merge.ts';

/** A task of the history index's builder process: a segment of new files, or a merge of segments. */
export type HistoryTask =
  { kind: 'build'; task: Omit<HistorySegmentTask, 'cancel'> } | { kind: 'merge'; task: Omit<HistoryMergeTask, 'cancel'> };

/** Runs one task in the builder process (common/idle-child.ts); `cancel` set to 1 stops it at its next batch. */
export default async function runHistoryTask(task: HistoryTask, cancel: Int32Array): Promise<{ rows: number }> {
  const stop = cancel.buffer as SharedArrayBuffer;
  return task.kind === 'merge' ? mergeHistorySegments({ ...task.task, cancel: stop }) : buildHistorySegment({ ...task.task, cancel: stop });
}
