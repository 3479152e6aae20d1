import type { ChildProcess } from 'node:child_process';
import type { Logger } from 'pino';
import { exitWhenParentGone, forkChild, onChildClosed, stopChild } from '../common/child-process.ts';
import { lowerCpuPriority } from '../common/cpu-priority.ts';

/** What a worker process started by `faithscreen start` tells its parent over the IPC channel. */
export type WorkerProcessMessage = { type: 'worker-ready' };

const CLI = new URL('../bin/faithscreen.js', import.meta.url).pathname;
/** How long a worker process may drain its activities at shutdown before it is killed. */
const STOP_GRACE_MS = 60_000;
/** Restart back-off after an unexpected exit: doubles from the first to the last value. */
const RESTART_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];
/** A worker process that ran this long before it died starts the back-off again from its first value. */
const HEALTHY_RUN_MS = 60_000;

/** Lowers the worker's CPU priority (common/cpu-priority.ts); never fatal: only the API's latency depends on it. */
export function lowerWorkerPriority(nice: number, logger: Logger): void {
  if (nice === 0) return;
  try {
    lowerCpuPriority(nice);
    logger.info({ nice }, 'worker CPU priority lowered');
  } catch (error) {
    logger.warn({ err: error, nice }, 'could not lower the worker CPU priority');
  }
}

/**
 * In a worker process started by `faithscreen start`: says when it is polling, and shuts down
 * when its parent is gone (the IPC channel closes even when the parent is killed outright), so a
 * worker is never orphaned.
 */
export function reportToParent(shutdown: (reason: string) => Promise<void>): { ready: () => void } {
  if (!process.send) return { ready: () => undefined };
  exitWhenParentGone({ drain: () => shutdown('parent process gone'), graceMs: STOP_GRACE_MS });
  // The channel alone must not keep the process alive (a worker that failed to start exits).
  process.channel?.unref();
  return { ready: () => process.send?.({ type: 'worker-ready' } satisfies WorkerProcessMessage) };
}

export interface WorkerProcessOptions {
  /** Environment of the worker process (the parent's, with the Temporal address it must use). */
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

export interface WorkerProcess {
  /** Resolves once the first worker process polls its task queue; rejects if it ends before that. */
  ready: Promise<void>;
  /** The running worker process's pid (changes when it is restarted). */
  pid(): number | undefined;
  /** Asks the worker to drain and stop (SIGTERM), kills it after a grace period; no restart after this. */
  stop(): Promise<void>;
}

/**
 * Runs `faithscreen worker` as a child process and keeps it running: `ready` resolves once it
 * polls its task queue (rejects if it ends before that), then it is restarted with a back-off
 * whenever it ends unexpectedly. `stop` works at any time, also before `ready`. A separate
 * process keeps the pipelines' CPU (screens, backfill chunk threads) off the API's event loop,
 * and its lower priority lets the API answer first (docs/operations.md).
 */
export function startWorkerProcess({ env, logger }: WorkerProcessOptions): WorkerProcess {
  let child: ChildProcess | undefined;
  let started = false;
  let stopping = false;
  let failures = 0;
  let restartTimer: NodeJS.Timeout | undefined;

  const spawnOnce = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const startedAt = Date.now();
      let ready = false;
      // detached: Ctrl-C reaches the parent only, which stops the worker in order (API first).
      const spawned = forkChild(CLI, ['worker'], { env, detached: true, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      child = spawned;
      spawned.on('message', (message: Partial<WorkerProcessMessage>) => {
        if (message?.type !== 'worker-ready' || ready) return;
        ready = true;
        logger.info({ worker_pid: spawned.pid }, 'worker process polling');
        resolve();
      });
      spawned.on('error', (error) => {
        if (!ready) reject(error);
        else logger.error({ err: error, worker_pid: spawned.pid }, 'worker process error');
      });
      onChildClosed(spawned, ({ code, signal }) => {
        if (child === spawned) child = undefined;
        if (!ready) reject(new Error(`the worker process exited before polling (code ${String(code)}, signal ${String(signal)})`));
        // At the first start a failure is the caller's to report; at shutdown an exit is expected.
        if (stopping || !started) return;
        if (ready && Date.now() - startedAt >= HEALTHY_RUN_MS) failures = 0;
        const delay = RESTART_DELAYS_MS[Math.min(failures, RESTART_DELAYS_MS.length - 1)]!;
        failures += 1;
        logger.error({ worker_pid: spawned.pid, code, signal, restart_in_ms: delay }, 'worker process exited unexpectedly; restarting it');
        // A restart that ends again is rescheduled by its own 'close', with a longer delay.
        restartTimer = setTimeout(() => {
          spawnOnce().catch((error: unknown) => logger.error({ err: error }, 'worker process restart failed'));
        }, delay);
      });
    });

  const ready = spawnOnce().then(() => {
    started = true;
  });

  return {
    ready,
    pid: () => child?.pid,
    stop: async () => {
      stopping = true;
      clearTimeout(restartTimer);
      if (child) await stopChild(child, STOP_GRACE_MS);
    },
  };
}
