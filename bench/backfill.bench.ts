/**
 * Month-end backfill benchmark: the sample universe at a reduced scale, backfilled month-end
 * from 2009-01-01 through Temporal (a real dev server, one in-process worker, chunks in 2
 * worker threads as the production worker runs them), with the lake's bytes per snapshot.
 * Throughput is extrapolated to the full universe's month-end history (≈ 26 million
 * snapshots: the run's count ÷ scale), whose target is < 30 min on 2 cores.
 * The same universe is backfilled twice in one run, into two copies of its lake: first from
 * scratch (the baseline: every date screened afresh, every snapshot file of a market read for
 * published keys), then as the worker runs it (reuse across dates, the snapshot file index).
 * Run directly with `npx tsx bench/backfill.bench.ts [scale]` (default 0.05).
 *
 * With BACKFILL_BENCH_BASELINE naming the root of an older checkout (one whose publishes wrote
 * no serving store, docs/serving.md "The serving store"), the same bench runs once in that
 * checkout and once in this one, each its own code in a process of its own
 * (bench/backfill-checkout-child.ts), one after the other (BACKFILL_BENCH_ROUNDS times,
 * default 1), and prints the ratios: what writing the store at publish costs a backfill.
 */
import { spawnSync } from 'node:child_process';
import { cp, readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from '@temporalio/worker';
import { createActivities, threadedChunkRunner } from '../activities/index.ts';
import { bundleWorkflows } from '../platform/worker.ts';
import { ingestSource } from '../sources/ingest.ts';
import { lakeRoot } from '../warehouse/lake-paths.ts';
import type { RunProgress } from '../workflows/run-progress.ts';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startTestTemporal } from '../test/support/temporal.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';
import { describeMachine } from './machine.ts';

const TO = '2026-11-21';
const CONCURRENCY = 2;
/** The full universe's month-end history from 2009, the issue's ≈ 26 million snapshots (docs/pipelines.md). */
const TARGET_MINUTES = 30;

/** One backfill of the universe. */
export interface BackfillRun {
  /** True for the baseline: no reuse across dates, no snapshot file index. */
  fromScratch: boolean;
  scale: number;
  snapshots: number;
  seconds: number;
  snapshotsPerSecond: number;
  /** Minutes the full universe's month-end history would take at this rate (count ÷ scale). */
  fullScaleMinutes: number;
  fullScaleSnapshots: number;
  /** Bytes of the published snapshot files per snapshot, and of the methodology texts in all. */
  bytesPerSnapshot: number;
  methodologyTextBytes: number;
  /** CPU seconds of this process (worker threads and DuckDB included, the Temporal server not). */
  cpuSeconds: number;
  /** Snapshots per second were the two cores this process's alone: snapshots ÷ (CPU seconds ÷ 2). */
  idleSnapshotsPerSecond: number;
  idleFullScaleMinutes: number;
  /** CPU seconds per million snapshots (this process). */
  cpuSecondsPerMillion: number;
}

export interface BackfillBench {
  baseline: BackfillRun;
  reuse: BackfillRun;
  /** Peak RSS of this process over both runs. */
  peakRssMiB: number;
}

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    // Zero-row seed files (placeholder partitions `_none`, `0`) are not data.
    if (!entry.isFile() || !entry.name.endsWith('.parquet') || /=(_none|0)(\/|$)/.test(entry.parentPath)) continue;
    total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

async function runBackfill(env: TestWorkflowEnvironment, dataDir: string, scale: number, fromScratch: boolean): Promise<BackfillRun> {
  const runner = threadedChunkRunner({ dataDir, threads: CONCURRENCY, fromScratch });
  const taskQueue = `bench-backfill-${fromScratch ? 'baseline' : 'reuse'}`;
  try {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await bundleWorkflows(),
      activities: createActivities({ dataDir, source: { source: 'sample', scale }, chunks: runner }),
      maxConcurrentActivityTaskExecutions: CONCURRENCY,
    });
    const started = performance.now();
    const cpu = process.cpuUsage();
    const progress = (await worker.runUntil(
      env.client.workflow.execute('backfill', {
        taskQueue,
        workflowId: taskQueue,
        args: [{ from: '2009-01-01', to: TO, cadence: 'month-end', concurrency: CONCURRENCY }],
      }),
    )) as RunProgress;
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    const snapshots = progress.published;
    const rate = snapshots / seconds;
    const fullScaleSnapshots = Math.round(snapshots / scale);
    return {
      fromScratch,
      scale,
      snapshots,
      seconds,
      snapshotsPerSecond: rate,
      fullScaleSnapshots,
      fullScaleMinutes: fullScaleSnapshots / rate / 60,
      cpuSeconds,
      cpuSecondsPerMillion: cpuSeconds / (snapshots / 1e6),
      idleSnapshotsPerSecond: snapshots / (cpuSeconds / CONCURRENCY),
      idleFullScaleMinutes: fullScaleSnapshots / (snapshots / (cpuSeconds / CONCURRENCY)) / 60,
      bytesPerSnapshot: (await bytesUnder(path.join(lakeRoot(dataDir), 'snapshots'))) / Math.max(1, snapshots),
      methodologyTextBytes: await bytesUnder(path.join(lakeRoot(dataDir), 'methodology_texts')),
    };
  } finally {
    await runner.close();
  }
}

/** Runs the month-end backfill on a fresh sample universe of `scale`: the baseline, then as the worker runs it. */
export async function runBackfillBench(scale = 0.05): Promise<BackfillBench> {
  const temp = await makeTempDir('faithscreen-bench-backfill-');
  const env = await startTestTemporal();
  try {
    const baselineDir = path.join(temp.dir, 'baseline');
    const reuseDir = path.join(temp.dir, 'reuse');
    await ingestSource({ dataDir: baselineDir, source: 'sample', scale, asOf: TO, concurrency: 2 });
    await cp(baselineDir, reuseDir, { recursive: true });
    const baseline = await runBackfill(env, baselineDir, scale, true);
    const reuse = await runBackfill(env, reuseDir, scale, false);
    return { baseline, reuse, peakRssMiB: process.resourceUsage().maxRSS / 1024 };
  } finally {
    await env.teardown();
    await temp.cleanup();
  }
}

function describeRun(r: BackfillRun): string[] {
  const label = r.fromScratch ? '[backfill] baseline (from scratch)' : '[backfill] with reuse';
  return [
    `${label}: month-end 2009-01-01 → ${TO} of the sample at scale ${r.scale}, through Temporal (dev server + 1 worker, ${CONCURRENCY} ` +
      `chunks at a time): ${r.snapshots} snapshots in ${r.seconds.toFixed(1)} s = ${r.snapshotsPerSecond.toFixed(0)} snapshots/s; ` +
      `extrapolated to the full universe (${(r.fullScaleSnapshots / 1e6).toFixed(1)} million snapshots): ${r.fullScaleMinutes.toFixed(0)} min ` +
      `at this wall-clock rate (target < ${TARGET_MINUTES} min on 2 cores)`,
    `${label}: CPU ${r.cpuSeconds.toFixed(0)} s in this process = ${r.cpuSecondsPerMillion.toFixed(0)} CPU s per million snapshots = ` +
      `${r.idleSnapshotsPerSecond.toFixed(0)} snapshots/s on 2 cores of its own, ${r.idleFullScaleMinutes.toFixed(0)} min for the full ` +
      `universe (an estimate for an idle machine: a shared one runs slower); lake ${r.bytesPerSnapshot.toFixed(0)} bytes per snapshot, ` +
      `methodology texts ${(r.methodologyTextBytes / 1024).toFixed(0)} KiB`,
  ];
}

/** The figures as printable lines. */
export function describeBackfillBench(r: BackfillBench): string[] {
  const cpuRatio = r.reuse.cpuSecondsPerMillion / r.baseline.cpuSecondsPerMillion;
  return [
    ...describeRun(r.baseline),
    ...describeRun(r.reuse),
    `[backfill] reuse vs baseline in this run: CPU per snapshot × ${cpuRatio.toFixed(2)}, wall clock × ${(r.reuse.seconds / r.baseline.seconds).toFixed(2)} ` +
      `(same snapshots: ${r.reuse.snapshots === r.baseline.snapshots ? 'yes' : 'no'}); peak RSS of this process ${r.peakRssMiB.toFixed(0)} MiB`,
  ];
}

const CODE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** One checkout's `runBackfillBench` in a child process (its own code, CPU time and peak RSS). */
function backfillIn(codeRoot: string, scale: number): BackfillBench {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(CODE_ROOT, 'bench', 'backfill-checkout-child.ts'), codeRoot, String(scale)],
    { cwd: codeRoot, encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
  );
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !line.startsWith('{'))
    throw new Error(`backfill in ${codeRoot} failed (${child.status}): ${child.stderr.slice(-2000)}`);
  return JSON.parse(line) as BackfillBench;
}

/** The bench in `baselineRoot` and in this checkout, alternately, with this checkout's figures as ratios of the baseline's. */
export function describeCheckoutComparison(baseline: BackfillBench, current: BackfillBench): string[] {
  const ratio = (label: string, b: BackfillRun, c: BackfillRun) =>
    `[backfill] ${label}, this checkout ÷ baseline: snapshots/s × ${(c.snapshotsPerSecond / b.snapshotsPerSecond).toFixed(2)} ` +
    `(${b.snapshotsPerSecond.toFixed(0)} → ${c.snapshotsPerSecond.toFixed(0)}), CPU s per million × ` +
    `${(c.cpuSecondsPerMillion / b.cpuSecondsPerMillion).toFixed(2)} (${b.cpuSecondsPerMillion.toFixed(0)} → ${c.cpuSecondsPerMillion.toFixed(0)}), ` +
    `same snapshots: ${b.snapshots === c.snapshots ? 'yes' : `no (${b.snapshots} / ${c.snapshots})`}`;
  return [
    ...describeBackfillBench(baseline).map((line) => line.replace('[backfill]', '[backfill] BASELINE checkout,')),
    ...describeBackfillBench(current).map((line) => line.replace('[backfill]', '[backfill] this checkout,')),
    ratio('from scratch', baseline.baseline, current.baseline),
    ratio('with reuse (as the worker runs it)', baseline.reuse, current.reuse),
    `[backfill] peak RSS: baseline ${baseline.peakRssMiB.toFixed(0)} MiB, this checkout ${current.peakRssMiB.toFixed(0)} MiB`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(describeMachine());
  const scale = Number(process.argv[2] ?? 0.05);
  const baselineRoot = process.env.BACKFILL_BENCH_BASELINE;
  if (baselineRoot) {
    for (let round = 1; round <= Number(process.env.BACKFILL_BENCH_ROUNDS ?? 1); round += 1) {
      const load = () =>
        os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ');
      console.log(`[backfill] round ${round}: load average ${load()} (1 / 5 / 15 min) before the baseline`);
      const baseline = backfillIn(path.resolve(baselineRoot), scale);
      console.log(`[backfill] round ${round}: load average ${load()} before this checkout`);
      const current = backfillIn(CODE_ROOT, scale);
      console.log(`[backfill] round ${round}: load average ${load()} at the end`);
      for (const line of describeCheckoutComparison(baseline, current)) console.log(line);
    }
  } else for (const line of describeBackfillBench(await runBackfillBench(scale))) console.log(line);
}
