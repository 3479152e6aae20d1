import type { ChildProcess } from 'node:child_process';
import { forkChild, hasEnded, onChildClosed, stopChild } from './child-process.ts';

/** After a cancel, how long the child may take to reach its next batch before it is killed. */
const CANCEL_GRACE_MS = 10_000;
/** A child left without work this long exits; the next task starts a new one. */
const IDLE_EXIT_MS = 30_000;

/** Thrown when a task was stopped (or never started) because its signal was aborted. */
export class IdleTaskCancelled extends Error {
  override name = 'IdleTaskCancelled';
}

export interface IdleChildOptions {
  /**
   * The module the child runs tasks with: its default export takes a task and a cancel flag
   * (an `Int32Array` of one element, set to 1 when the task is asked to stop) and resolves with
   * the result (structured-cloneable). A task that stops throws an `IdleTaskCancelled` (or a
   * subclass: it keeps that name).
   */
  module: URL;
  /** What the tasks make, for messages ("history index segment", "result sidecar"). */
  what: string;
  idleExitMs?: number;
}

/** A task's result, with the child's peak RSS (its memory is not the parent's). */
export type IdleTaskResult<R> = R & { maxRssMiB: number };

type ChildMessage<R> =
  { type: 'ready' } | { type: 'done'; result: IdleTaskResult<R> } | { type: 'failed'; message: string; cancelled: boolean };

/**
 * Background work of an API process in a child process of its own at the lowest CPU priority
 * (docs/operations.md, *Processes and files an API leaves behind*): in a session of its own, so
 * that where the kernel groups scheduling by session (autogroup) its group is lowered too, and it
 * takes only cores that neither the API's requests nor a worker want; its memory is its own. It
 * takes one task at a time and stays up while tasks keep coming (starting a process and its
 * TypeScript loader is not free: docs/benchmarks/figures-behind-code.md), exiting `idleExitMs` after its last. A task's signal asks
 * it to stop at its next batch; a child that does not stop in time is killed. A child that dies
 * fails its task; the next task starts a new child.
 */
export class IdleChildProcess<T, R> {
  private child: ChildProcess | null = null;
  private ready: Promise<ChildProcess> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private busy = false;

  constructor(private readonly options: IdleChildOptions) {}

  /** Runs `task` in the child; `id` names it in messages. */
  async run(task: T, id: string, signal: AbortSignal): Promise<IdleTaskResult<R>> {
    if (this.busy) throw new Error(`${this.options.what} ${id}: one task at a time`);
    if (signal.aborted) throw new IdleTaskCancelled(`${this.options.what} ${id}: not started, asked to stop`);
    this.busy = true;
    this.clearIdle();
    try {
      const reused = this.child !== null && !hasEnded(this.child);
      const child = await this.started();
      try {
        return await this.answer(child, task, id, signal);
      } catch (error) {
        // A kept child that died between tasks (killed, out of memory) may not have been seen to end
        // yet: the task never reached it, so it runs once more on a new child.
        if (!reused || signal.aborted || !(hasEnded(child) || !child.connected)) throw error;
        if (this.child === child) {
          this.child = null;
          this.ready = null;
        }
        return await this.answer(await this.started(), task, id, signal);
      }
    } finally {
      this.busy = false;
      if (this.child && !hasEnded(this.child))
        this.idleTimer = setTimeout(() => void this.close(), this.options.idleExitMs ?? IDLE_EXIT_MS).unref();
    }
  }

  /** Stops the child (asked by a message: it ignores SIGTERM, which Ctrl-C sends it too). */
  async close(): Promise<void> {
    this.clearIdle();
    const child = this.child;
    this.child = null;
    this.ready = null;
    if (child) await stopChild(child, CANCEL_GRACE_MS, () => child.connected && child.send({ type: 'exit' }));
  }

  private started(): Promise<ChildProcess> {
    if (this.ready && this.child && !hasEnded(this.child)) return this.ready;
    const child = forkChild(new URL('./idle-child-entry.mjs', import.meta.url), [this.options.module.href], {
      serialization: 'advanced',
      detached: true,
    });
    this.child = child;
    this.ready = new Promise((resolve, reject) => {
      const onReady = (message: ChildMessage<R>) => {
        if (message.type !== 'ready') return;
        child.off('message', onReady);
        resolve(child);
      };
      child.on('message', onReady);
      // Every 'error' (a failed start, a failed send) is also a task's failure, through its callback or the close.
      child.on('error', reject);
      onChildClosed(child, ({ code, signal }) =>
        reject(new Error(`the process ended (${signal ?? `exit code ${code}`}) before it was ready`)),
      );
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private answer(child: ChildProcess, task: T, id: string, signal: AbortSignal): Promise<IdleTaskResult<R>> {
    const what = `${this.options.what} ${id}`;
    const stopped = () => new IdleTaskCancelled(`${what}: stopped, asked to stop`);
    // Asked to stop while the child was starting: nothing is sent.
    if (signal.aborted) return Promise.reject(stopped());
    return new Promise((resolve, reject) => {
      let killer: NodeJS.Timeout | undefined;
      const finish = (outcome: () => void) => {
        clearTimeout(killer);
        signal.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('close', onClose);
        outcome();
      };
      const onMessage = (message: ChildMessage<R>) => {
        if (message.type === 'done') finish(() => resolve(message.result));
        else if (message.type === 'failed') finish(() => reject(message.cancelled ? stopped() : new Error(`${what}: ${message.message}`)));
      };
      const onClose = (code: number | null, exitSignal: NodeJS.Signals | null) =>
        finish(() =>
          reject(
            signal.aborted ? stopped() : new Error(`${what}: the process ended (${exitSignal ?? `exit code ${code}`}) without an answer`),
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
      // A channel closed under the send fails the task (an 'error' event nobody handles would end the parent).
      child.send({ type: 'task', task }, (error) => {
        if (error) finish(() => reject(new Error(`${what}: the process could not be reached (${error.message})`)));
      });
    });
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
