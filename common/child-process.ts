import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';

/**
 * The supervision of faithscreen's own child process, `npm start`'s worker process
 * (platform/worker-process.ts). The caller keeps its own policy (restart with a back-off); this
 * module holds only how a child is started, noticed ending, stopped, and how a child notices its
 * parent gone.
 */

/**
 * Forks a Node.js child process without the parent's execArgv: a parent's `--inspect` port
 * would clash, and each entry file registers the TypeScript loader itself.
 */
export function forkChild(modulePath: string | URL, args: readonly string[], options: Omit<ForkOptions, 'execArgv'> = {}): ChildProcess {
  return fork(modulePath, args, { ...options, execArgv: [] });
}

/** How a child process ended: its exit code, or the signal that ended it. */
export interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Calls `listener` once the child has ended. On 'close', not 'exit': a process that could not be
 * started at all reports 'error' and 'close' only, never 'exit'.
 */
export function onChildClosed(child: ChildProcess, listener: (end: ChildEnd) => void): void {
  child.once('close', (code: number | null, signal: NodeJS.Signals | null) => listener({ code, signal }));
}

/** Whether the child process has already exited (or was killed). */
export function hasEnded(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Asks a child process to stop (`ask`: SIGTERM unless the child is asked another way), kills it
 * with SIGKILL if it has not ended after `graceMs`, and resolves once it has closed.
 */
export async function stopChild(child: ChildProcess, graceMs: number, ask: () => void = () => child.kill('SIGTERM')): Promise<void> {
  if (hasEnded(child)) return;
  const closed = new Promise<void>((resolve) => onChildClosed(child, () => resolve()));
  ask();
  const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await closed;
  clearTimeout(killer);
}

/** How a child process ends once its parent is gone. */
export interface ParentGoneOptions {
  /** Work to finish first (exit code 0 when it does); without it the child exits at once with code 1. */
  drain?: () => Promise<void>;
  /** How long `drain` may take before the child exits anyway with code 1. */
  graceMs?: number;
}

/**
 * In a child process: ends it when its parent is gone. The IPC channel closes even when the
 * parent is killed outright, so a child is never orphaned; a bounded drain, since without its
 * parent (and whatever the parent started) a drain may never finish.
 */
export function exitWhenParentGone({ drain, graceMs = 0 }: ParentGoneOptions = {}): void {
  process.once('disconnect', () => {
    if (!drain) process.exit(1);
    setTimeout(() => process.exit(1), graceMs).unref();
    void drain().then(() => process.exit(0));
  });
}
