/**
 * Pipeline benchmark: the nightly screen of the full sample universe through Temporal (a real
 * dev server, one in-process worker) against the same activity code run in one process without
 * Temporal, in one run, with the ratio; then the 2009→today backfill's wall time and count.
 * Run directly with `npx tsx bench/pipeline.bench.ts [scale]`.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { MockActivityEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities, createPipelineActivities, planChunks, threadedChunkRunner, type ChunkRunner } from '../activities/index.ts';
import { createLakePipelineData } from '../activities/lake-pipeline-data.ts';
import type { ChunkOutcome, ScreenPlan, TickerChunk } from '../activities/pipeline-types.ts';
import { bundleWorkflows } from '../platform/worker.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { ingestSource } from '../sources/ingest.ts';
import { countListings } from '../warehouse/lake-queries.ts';
import type { RunProgress } from '../workflows/run-progress.ts';
import { startTestTemporal } from '../test/support/temporal.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';
import { describeMachine } from './machine.ts';

const DATE = '2026-11-21';
const CHUNK = 5_000;
const CONCURRENCY = 2;

export interface PipelineBench {
  scale: number;
  tickers: number;
  ingestSeconds: number;
  inProcessSeconds: number;
  temporalSeconds: number;
  ratio: number;
  backfillSeconds: number;
  backfillSnapshots: number;
  peakRssMiB: number;
}

async function inProcessNightly(dataDir: string, chunks: TickerChunk[], runner: ChunkRunner): Promise<number> {
  const activities = createPipelineActivities({ dataDir, data: createLakePipelineData(dataDir), chunks: runner });
  const env = new MockActivityEnvironment();
  let next = 0;
  let published = 0;
  const lane = async (): Promise<void> => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!;
      const outcome: ChunkOutcome = await env.run(activities.screenChunk, {
        runId: 'bench-in-process',
        source: 'nightly' as const,
        chunk,
        dates: [DATE],
      });
      published += outcome.published;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return published;
}

/** Runs the pipeline benchmark on a fresh sample universe of `scale` (1 = full). */
export async function runPipelineBench(scale = 1): Promise<PipelineBench> {
  const temp = await makeTempDir('faithscreen-bench-pipeline-');
  const env = await startTestTemporal();
  // Both runs screen chunks in worker threads, as the worker does (activities/chunk-runner.ts).
  const runner = threadedChunkRunner({ dataDir: temp.dir, threads: CONCURRENCY });
  try {
    let started = performance.now();
    await ingestSource({ dataDir: temp.dir, source: 'sample', scale, asOf: DATE, concurrency: 2 });
    const ingestSeconds = (performance.now() - started) / 1000;
    const counts = await withDuckDB(':memory:', {}, (c) => countListings(c, temp.dir, { date: DATE, kind: 'stock' }));
    const plan: ScreenPlan = { date: DATE, totalTickers: counts.reduce((s, c) => s + c.count, 0), chunks: planChunks(counts, CHUNK) };

    started = performance.now();
    await inProcessNightly(temp.dir, plan.chunks, runner);
    const inProcessSeconds = (performance.now() - started) / 1000;

    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: 'bench',
      workflowBundle: await bundleWorkflows(),
      activities: createActivities({ dataDir: temp.dir, source: { source: 'sample', scale }, chunks: runner }),
      maxConcurrentActivityTaskExecutions: CONCURRENCY,
    });
    const { temporalSeconds, backfillSeconds, backfill } = await worker.runUntil(async () => {
      let t = performance.now();
      await env.client.workflow.execute('nightlyScreen', {
        taskQueue: 'bench',
        workflowId: 'bench-nightly',
        args: [{ date: DATE, ingest: false, chunkSize: CHUNK, concurrency: CONCURRENCY }],
      });
      const temporal = (performance.now() - t) / 1000;
      t = performance.now();
      const result = (await env.client.workflow.execute('backfill', {
        taskQueue: 'bench',
        workflowId: 'bench-backfill',
        args: [{ from: '2009-01-01', to: DATE, cadence: 'year-end', concurrency: CONCURRENCY }],
      })) as RunProgress;
      return { temporalSeconds: temporal, backfillSeconds: (performance.now() - t) / 1000, backfill: result };
    });
    return {
      scale,
      tickers: plan.totalTickers,
      ingestSeconds,
      inProcessSeconds,
      temporalSeconds,
      ratio: temporalSeconds / inProcessSeconds,
      backfillSeconds,
      backfillSnapshots: backfill.published,
      peakRssMiB: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await runner.close();
    await env.teardown();
    await temp.cleanup();
  }
}

/** The figures as printable lines. */
export function describePipelineBench(r: PipelineBench): string[] {
  return [
    `[pipeline] sample universe at scale ${r.scale}: ${r.tickers} stocks, ingest ${r.ingestSeconds.toFixed(1)} s`,
    `[pipeline] nightly screen, same activities in one process without Temporal (chunks in ${CONCURRENCY} worker threads, as the ` +
      `worker runs them): ${r.inProcessSeconds.toFixed(1)} s`,
    `[pipeline] nightly screen through Temporal (dev server + 1 worker, ${CONCURRENCY} chunks at a time): ${r.temporalSeconds.toFixed(1)} ` +
      `s, ratio ${r.ratio.toFixed(2)} (targets: ≤ 1.5, < 60 s)`,
    `[pipeline] backfill 2009-01-01 → ${DATE} (year-end): ${r.backfillSnapshots} snapshots in ${r.backfillSeconds.toFixed(1)} s (targets: ≥ 872,000, < 600 s)`,
    `[pipeline] peak RSS of this process (worker included): ${r.peakRssMiB.toFixed(0)} MiB`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(describeMachine());
  for (const line of describePipelineBench(await runPipelineBench(Number(process.argv[2] ?? 1)))) console.log(line);
}
