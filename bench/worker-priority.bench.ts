/**
 * What the worker's lower CPU priority buys the API on shared cores (`npx tsx
 * bench/worker-priority.bench.ts`, part of `npm run bench`; docs/operations.md, *CPU priority of
 * the worker*). An API-like process keeps two threads busy (its event loop and a render or load
 * thread) and counts how much work its main thread gets done in a fixed time: alone (the
 * baseline), then beside a worker process spinning four threads in a session of its own (as
 * `faithscreen start` runs it) at nice 0 and at `WORKER_NICE`'s default, 10. Each figure is the
 * share of the baseline's work done, measured in the same run. A synthetic CPU load, not the
 * API: the latency of real reads during a backfill is the p99 matrix's `npm start, backfill
 * running` role (bench/api-matrix.bench.ts).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const HOG = fileURLToPath(new URL('./worker-priority-hog.ts', import.meta.url));

export interface WorkerPriorityFigures {
  cores: number;
  seconds: number;
  /** Share of the baseline's work the API-like main thread did beside the worker, per nice value. */
  shares: Array<{ nice: number; share: number }>;
}

/** Iterations of a tight loop in `ms` of wall time: the main thread's share of a core. */
function spin(ms: number): number {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n += 1;
  return n;
}

async function besideWorker(nice: number, ms: number): Promise<number> {
  const hog = spawn(process.execPath, ['--import', 'tsx', HOG, String(nice)], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      hog.stdout!.once('data', () => resolve());
      hog.once('exit', (code) => reject(new Error(`the worker stand-in exited with ${code}`)));
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    return spin(ms);
  } finally {
    hog.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

export async function runWorkerPriorityBench(options: { seconds?: number } = {}): Promise<WorkerPriorityFigures> {
  const seconds = options.seconds ?? Number(process.env.WORKER_PRIORITY_SECONDS ?? 3);
  const ms = seconds * 1000;
  // The API's second busy thread, so the API alone wants both of a 2-core machine's cores.
  const busy = new Worker('for (;;) {}', { eval: true });
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const baseline = spin(ms);
    const shares: WorkerPriorityFigures['shares'] = [];
    for (const nice of [0, 10]) shares.push({ nice, share: (await besideWorker(nice, ms)) / baseline });
    return { cores: os.availableParallelism(), seconds, shares };
  } finally {
    await busy.terminate();
  }
}

export function formatWorkerPriorityBench(f: WorkerPriorityFigures): string[] {
  return [
    `[worker-priority] an API-like process (2 busy threads) beside a worker spinning 4 threads in its own session, ${f.cores} cores, ${f.seconds} s each: ` +
      f.shares.map((s) => `worker at nice ${s.nice}: API main thread did ${(s.share * 100).toFixed(0)} % of its work alone`).join('; '),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of formatWorkerPriorityBench(await runWorkerPriorityBench())) console.log(line);
}
