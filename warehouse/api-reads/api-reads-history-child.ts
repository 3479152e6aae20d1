import type { ChildProcess } from 'node:child_process';
import { forkChild, hasEnded, onChildClosed, stopChild } from '../../common/child-process.ts';
import { HistoryBuildCancelled, type HistorySegmentTask } from './api-reads-history-build.ts';
import type { HistoryMergeTask } from './api-reads-history-merge.ts';

/** What a build gets from the index; the child keeps its own cancel flag. */
export type HistoryBuildRequest = Omit<HistorySegmentTask, 'cancel'>;
/** What a merge gets from the index. */
export type HistoryMergeRequest = Omit<HistoryMergeTask, 'cancel'>;

/** A segment's rows, and the builder process's peak RSS (its memory is not the API's). */
export interface HistoryBuildResult {
  rows: number;
  maxRssMiB: number;
}

/** After a cancel, how long the child may take to reach its next batch before it is killed. */
const CANCEL_GRACE_MS = 10_000;
/** A builder left without work this long exits; the next task starts a new one. */
const IDLE_EXIT_MS = 30_000;

type ChildMessage =
  { type: 'ready' } | { type: 'done'; result: HistoryBuildResult } | { type: 'failed'; message: string; cancelled: boolean };
type Task = { type: 'build'; task: HistoryBuildRequest } | { type: 'merge'; task: HistoryMergeRequest };

/**
 * The history index's builder process (docs/api.md, "as_of from the history index"): segment
 * builds and merges run in a child process of its own, so the sorts' DuckDB instances and their
 * memory live outside the API process and the API's RSS does not grow with the history being
 * indexed. The child runs at the lowest CPU priority, below the API and the worker, in a session
 * of its own. It takes one task at a time and stays up while tasks keep coming (a backfill
 * announces files every few seconds: starting a process and its TypeScript loader for each
 * cost ~0.4 s of CPU a build), and exits after `IDLE_EXIT_MS` without one. A task's `signal`
 * asks it to stop at its next batch; a child that does not stop in time is killed, which leaves
 * no torn index (a segment is renamed into place only when complete; temp files are swept at a
 * later start). A child that dies fails its task; the next task starts a new child.
 */
export class HistoryBuilderProcess {
  private child: ChildProcess | null = null;
  private ready: Promise<ChildProcess> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private busy = false;

  constructor(private readonly options: { idleExitMs?: number } = {}) {}

  build(task: HistoryBuildRequest, signal: AbortSignal): Promise<HistoryBuildResult> {
    return this.run({ type: 'build', task }, signal);
  }

  merge(task: HistoryMergeRequest, signal: AbortSignal): Promise<HistoryBuildResult> {
    return this.run({ type: 'merge', task }, signal);
  }

  /** Stops the child (asked by a message: it ignores SIGTERM, which Ctrl-C sends it too). */
  async close(): Promise<void> {
    this.clearIdle();
    const child = this.child;
    this.child = null;
    this.ready = null;
    if (child) await stopChild(child, CANCEL_GRACE_MS, () => child.connected && child.send({ type: 'exit' }));
  }

  private async run(task: Task, signal: AbortSignal): Promise<HistoryBuildResult> {
    if (this.busy) throw new Error('history index builder: one task at a time');
    if (signal.aborted) throw new HistoryBuildCancelled(`history index segment ${task.task.id}: not started, the index is closing`);
    this.busy = true;
    this.clearIdle();
    try {
      const child = await this.started();
      return await this.answer(child, task, signal);
    } finally {
      this.busy = false;
      if (this.child && !hasEnded(this.child))
        this.idleTimer = setTimeout(() => void this.close(), this.options.idleExitMs ?? IDLE_EXIT_MS).unref();
    }
  }

  private started(): Promise<ChildProcess> {
    if (this.ready && this.child && !hasEnded(this.child)) return this.ready;
    // A session of its own: where the kernel groups scheduling by session, a nice value counts only
    // within the group, and in the API's group the builder would outrank a backfilling worker.
    const child = forkChild(new URL('./api-reads-history-child-entry.mjs', import.meta.url), [], {
      serialization: 'advanced',
      detached: true,
    });
    this.child = child;
    this.ready = new Promise((resolve, reject) => {
      const onReady = (message: ChildMessage) => {
        if (message.type !== 'ready') return;
        child.off('message', onReady);
        resolve(child);
      };
      child.on('message', onReady);
      // Every 'error' (a failed start, a failed send) is also a task's failure, through its callback or the close.
      child.on('error', reject);
      onChildClosed(child, ({ code, signal }) =>
        reject(new Error(`the builder process ended (${signal ?? `exit code ${code}`}) before it was ready`)),
      );
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private answer(child: ChildProcess, task: Task, signal: AbortSignal): Promise<HistoryBuildResult> {
    const id = task.task.id;
    return new Promise((resolve, reject) => {
      let killer: NodeJS.Timeout | undefined;
      const finish = (outcome: () => void) => {
        clearTimeout(killer);
        signal.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('close', onClose);
        outcome();
      };
      const onMessage = (message: ChildMessage) => {
        if (message.type === 'done') finish(() => resolve(message.result));
        else if (message.type === 'failed')
          finish(() =>
            reject(
              message.cancelled
                ? new HistoryBuildCancelled(`history index segment ${id}: build stopped, the index is closing`)
                : new Error(`history index segment ${id}: ${message.message}`),
            ),
          );
      };
      const onClose = (code: number | null, exitSignal: NodeJS.Signals | null) =>
        finish(() =>
          reject(
            signal.aborted
              ? new HistoryBuildCancelled(`history index segment ${id}: build stopped, the index is closing`)
              : new Error(
                  `history index segment ${id}: the builder process ended (${exitSignal ?? `exit code ${code}`}) without an answer`,
                ),
          ),
        );
      // Asked to stop at the next batch; killed if it has not answered in time.
      const onAbort = () => {
        if (child.connected) child.send({ type: 'cancel' });
        killer = setTimeout(() => child.kill('SIGKILL'), CANCEL_GRACE_MS).unref();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      child.on('message', onMessage);
      child.once('close', onClose);
      // A channel closed under the send fails the task (an 'error' event nobody handles would end the API).
      child.send(task, (error) => {
        if (error)
          finish(() => reject(new Error(`history index segment ${id}: the builder process could not be reached (${error.message})`)));
      });
    });
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
