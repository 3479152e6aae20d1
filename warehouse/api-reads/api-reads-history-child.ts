import { forkChild, onChildClosed, stopChild } from '../../common/child-process.ts';
import { HistoryBuildCancelled, type HistorySegmentTask } from './api-reads-history-build.ts';

/** What a build gets from the index; the child keeps its own cancel flag. */
export type HistoryBuildRequest = Omit<HistorySegmentTask, 'cancel'>;

/** A built segment's rows, and the builder process's peak RSS (its memory is not the API's). */
export interface HistoryBuildResult {
  rows: number;
  maxRssMiB: number;
}

/** After a cancel, how long the child may take to reach its next batch before it is killed. */
const CANCEL_GRACE_MS = 10_000;

type ChildMessage =
  { type: 'ready' } | { type: 'done'; result: HistoryBuildResult } | { type: 'failed'; message: string; cancelled: boolean };

/**
 * Builds one history index segment in a child process of its own (docs/api.md, "as_of from the
 * history index"): the sort's DuckDB instance and its memory live and die outside the API
 * process, so the API's RSS does not grow with the history being indexed. The child runs at the
 * lowest CPU priority, below the API and the worker. `signal` asks the build to stop at its next batch; a child
 * that does not stop in time is killed, which leaves no torn index (a segment is renamed into
 * place only when complete; its temp files are swept at a later start).
 */
export function buildSegmentInChild(request: HistoryBuildRequest, signal: AbortSignal): Promise<HistoryBuildResult> {
  if (signal.aborted)
    return Promise.reject(new HistoryBuildCancelled(`history index segment ${request.id}: not started, the index is closing`));
  // A session of its own: where the kernel groups scheduling by session, a nice value counts only
  // within the group, and in the API's group the builder would outrank a backfilling worker.
  const child = forkChild(new URL('./api-reads-history-child-entry.mjs', import.meta.url), [], {
    serialization: 'advanced',
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let answer: ChildMessage | null = null;
    // The child ignores SIGTERM (Ctrl-C reaches it too): it is asked to stop by a message.
    const onAbort = () =>
      void stopChild(child, CANCEL_GRACE_MS, () => {
        if (child.connected) child.send({ type: 'cancel' });
      });
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') child.send({ type: 'build', task: request });
      else answer = message;
    });
    child.on('error', (error) => {
      if (!answer) answer = { type: 'failed', message: String(error), cancelled: false };
    });
    onChildClosed(child, ({ code, signal: exitSignal }) => {
      signal.removeEventListener('abort', onAbort);
      if (answer?.type === 'done') resolve(answer.result);
      else if (answer?.type === 'failed' && !answer.cancelled) reject(new Error(`history index segment ${request.id}: ${answer.message}`));
      else if (signal.aborted)
        reject(new HistoryBuildCancelled(`history index segment ${request.id}: build stopped, the index is closing`));
      else
        reject(
          new Error(
            `history index segment ${request.id}: the builder process ended (${exitSignal ?? `exit code ${code}`}) without an answer`,
          ),
        );
    });
  });
}
