import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value background work takes by default (the worker's `WORKER_NICE`). */
export const BACKGROUND_NICE = 10;

/** Whether this process leads its own session (Linux): then its scheduler autogroup is its own. */
function leadsOwnSession(): boolean {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // After the command name in parentheses: state, ppid, pgrp, session.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]) === process.pid;
}

/**
 * Lowers this process's CPU priority to `nice` (0 = unchanged, 19 = lowest), so that an API on
 * the same cores is scheduled first (docs/operations.md, *CPU priority of the worker*). On Linux
 * a priority belongs to each thread: every thread already running is lowered, and threads
 * started later (Temporal's runtime, worker threads, DuckDB's) inherit it from their creator.
 * Where the kernel groups processes by session (autogroup), a nice value only ranks threads
 * within their group, so a process that leads its own session lowers its group too (without
 * that, a lowered worker still competed with a busy API: docs/benchmarks/figures-behind-code.md).
 * Throws when the system refuses (some containers do).
 */
export function lowerCpuPriority(nice: number): void {
  if (nice === 0) return;
  if (process.platform !== 'linux') {
    setPriority(nice);
    return;
  }
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      setPriority(Number(tid), nice);
    } catch (error) {
      // A thread that ended since the listing has nothing left to lower.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  // The autogroup is shared by the whole session: lowered only when that session is this process's own.
  if (leadsOwnSession()) {
    try {
      writeFileSync('/proc/self/autogroup', String(nice));
    } catch (error) {
      // No autogroup (kernel without it) or a read-only /proc (some containers): the per-thread values are all there is.
      if (!['ENOENT', 'EACCES', 'EPERM', 'EROFS'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
}
