import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers this process's CPU priority to `nice` (0 = unchanged, 19 = lowest), so that an API on
 * the same cores is scheduled first (docs/operations.md, *CPU priority of the worker*). On Linux
 * a priority belongs to each thread: every thread already running is lowered, and threads
 * started later (Temporal's runtime, worker threads, DuckDB's) inherit it from their creator.
 * Throws when the system refuses (some containers do).
 */
export function lowerCpuPriority(nice: number): void {
  if (nice === 0) return;
  if (process.platform === 'linux') {
    for (const tid of readdirSync('/proc/self/task')) setPriority(Number(tid), nice);
  } else {
    setPriority(nice);
  }
}
