/**
 * The busy worker of bench/worker-priority.bench.ts: lowers its CPU priority the way `faithscreen
 * worker` does (common/cpu-priority.ts, at the nice value given as its argument), then keeps
 * four threads spinning, as a backfill's chunk threads and DuckDB keep every core busy.
 */
import { Worker } from 'node:worker_threads';
import { lowerCpuPriority } from '../common/cpu-priority.ts';

lowerCpuPriority(Number(process.argv[2] ?? 0));
for (let i = 0; i < 4; i++) new Worker('for (;;) {}', { eval: true });
process.stdout.write('spinning\n');
