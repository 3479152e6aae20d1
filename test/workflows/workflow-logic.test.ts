import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkOutcome, ScreenChunkRequest, ScreenPlan, TickerChunk } from '../../activities/pipeline-types.ts';
import { bundleWorkflows } from '../../platform/worker.ts';
import { CHUNKS_PER_RUN } from '../../workflows/chunked-run.ts';
import type { RunProgress } from '../../workflows/run-progress.ts';
import { startTestTemporal } from '../support/temporal.ts';

/**
 * The workflows' own logic with stub activities: no lake, no DuckDB, so a run of hundreds of
 * chunks takes seconds. The end-to-end suites (pipelines, backfill-history, crash-recovery)
 * cover the real activities; these reach what they cannot afford: the continue-as-new of a
 * run longer than CHUNKS_PER_RUN, lane limits, and failures folded into progress. Temporal's
 * time-skipping server is a separate download this machine cannot reach; nothing here waits
 * on a timer, so the provisioned dev server is as fast.
 */

function planOf(date: string, chunks: number, perChunk: number): ScreenPlan {
  const list: TickerChunk[] = Array.from({ length: chunks }, (_, index) => ({
    index,
    market: 'us',
    offset: index * perChunk,
    limit: perChunk,
  }));
  return { date, totalTickers: chunks * perChunk, chunks: list };
}

function outcomeOf(request: ScreenChunkRequest, failedChunks: ReadonlySet<number>): ChunkOutcome {
  const { chunk, dates } = request;
  const failed = failedChunks.has(chunk.index) ? [{ market: chunk.market, ticker: `T${chunk.offset}`, reason: 'stub: bad input row' }] : [];
  return {
    index: chunk.index,
    screened: chunk.limit,
    published: (chunk.limit - failed.length) * dates.length,
    skipped: 0,
    failed,
    failedCount: failed.length,
    files: [],
  };
}

interface StubRecord {
  screened: ScreenChunkRequest[];
  ingested: string[];
  peakIngest: number;
  peakScreen: number;
  /** Chunks screened when each save of the lake's copy of the current verdicts ran (a new run makes none). */
  checkpointsAfter: number[];
}

function stubActivities(plan: ScreenPlan, options: { ingestChunks?: number; failedChunks?: ReadonlySet<number> } = {}) {
  const record: StubRecord = { screened: [], ingested: [], peakIngest: 0, peakScreen: 0, checkpointsAfter: [] };
  let ingesting = 0;
  let screening = 0;
  const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const activities = {
    async planSourceIngest() {
      return Array.from({ length: options.ingestChunks ?? 0 }, (_, i) => ({ id: `part-${i}`, markets: ['us'], tickers: 1 }));
    },
    async ingestSourceChunk(request: { chunkId: string }) {
      ingesting += 1;
      record.peakIngest = Math.max(record.peakIngest, ingesting);
      // Long enough that every lane is busy at once: a missing limit would show as a higher peak.
      await tick(200);
      record.ingested.push(request.chunkId);
      ingesting -= 1;
      return { chunkId: request.chunkId, rows: {}, files: [] };
    },
    async finishSourceIngest() {
      return { applied: [] };
    },
    async planScreen() {
      return plan;
    },
    // Offered although no worker registers it: a new run must not schedule it.
    async saveCurrentVerdicts() {
      record.checkpointsAfter.push(record.screened.length);
    },
    async screenChunk(request: ScreenChunkRequest) {
      screening += 1;
      record.peakScreen = Math.max(record.peakScreen, screening);
      await tick(2);
      record.screened.push(request);
      screening -= 1;
      return outcomeOf(request, options.failedChunks ?? new Set());
    },
  };
  return { activities, record };
}

describe('workflow logic with stub activities (real Temporal dev server)', () => {
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundleWithSourceMap;

  beforeAll(async () => {
    [env, bundle] = await Promise.all([startTestTemporal(), bundleWorkflows()]);
  }, 120_000);

  afterAll(async () => {
    await env?.teardown();
  });

  async function run<T>(
    taskQueue: string,
    activities: object,
    workflow: string,
    workflowId: string,
    input: object,
  ): Promise<{ result: T; runs: number }> {
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: bundle, activities });
    return worker.runUntil(async () => {
      const handle = await env.client.workflow.start(workflow, { taskQueue, workflowId, args: [input] });
      const result = (await handle.result()) as T;
      let runs = 0;
      for await (const execution of env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
        if (execution.workflowId === workflowId) runs += 1;
      }
      return { result, runs };
    });
  }

  it('a nightly run longer than CHUNKS_PER_RUN continues as new and still screens every chunk exactly once', async () => {
    const chunks = CHUNKS_PER_RUN + 25;
    const { activities, record } = stubActivities(planOf('2024-02-29', chunks, 3), { failedChunks: new Set([7, CHUNKS_PER_RUN + 3]) });
    const { result, runs } = await run<RunProgress>('logic-can', activities, 'nightlyScreen', 'logic-continue-as-new', {
      date: '2024-02-29',
      ingest: false,
      concurrency: 4,
    });

    expect(runs).toBe(2);
    expect(record.screened.map((r) => r.chunk.index).sort((a, b) => a - b)).toEqual(Array.from({ length: chunks }, (_, i) => i));
    expect(result).toMatchObject({
      phase: 'done',
      totalChunks: chunks,
      doneChunks: chunks,
      totalTickers: chunks * 3,
      doneTickers: chunks * 3,
      failedCount: 2,
    });
    expect(result.published).toBe(chunks * 3 - 2);
    // The failure of the second run was carried across continue-as-new with the first run's.
    expect(result.failedSample.map((f) => f.ticker)).toEqual(['T21', `T${(CHUNKS_PER_RUN + 3) * 3}`]);
    expect(record.peakScreen).toBeLessThanOrEqual(4);
  }, 120_000);

  it('ingests every source chunk in at most `concurrency` lanes before it plans the screen', async () => {
    const { activities, record } = stubActivities(planOf('2024-03-29', 2, 5), { ingestChunks: 9 });
    const { result } = await run<RunProgress>('logic-ingest', activities, 'nightlyScreen', 'logic-ingest', {
      date: '2024-03-29',
      concurrency: 3,
    });

    expect(record.ingested.sort()).toEqual(Array.from({ length: 9 }, (_, i) => `part-${i}`).sort());
    expect(record.peakIngest).toBe(3);
    expect(result).toMatchObject({ phase: 'done', doneChunks: 2, published: 10 });
  }, 60_000);

  it('a backfill screens each chunk once for all its cadence dates, `from` included', async () => {
    const { activities, record } = stubActivities(planOf('2011-06-30', 3, 2));
    const { result } = await run<RunProgress>('logic-backfill', activities, 'backfill', 'logic-backfill', {
      from: '2009-01-01',
      to: '2011-06-30',
      cadence: 'year-end',
      concurrency: 2,
    });

    expect(record.screened).toHaveLength(3);
    expect(record.screened[0]!.dates).toEqual(['2009-01-01', '2009-12-31', '2010-12-31', '2011-06-30']);
    expect(record.screened.every((r) => r.source === 'backfill')).toBe(true);
    expect(result).toMatchObject({ phase: 'done', doneChunks: 3, published: 3 * 2 * 4 });
    // The lake's copy of the current verdicts is no longer saved at its end.
    expect(record.checkpointsAfter).toEqual([]);
  }, 60_000);

  it('an empty plan finishes at once with nothing screened', async () => {
    const { activities, record } = stubActivities(planOf('2024-04-30', 0, 1));
    const { result, runs } = await run<RunProgress>('logic-empty', activities, 'nightlyScreen', 'logic-empty', {
      date: '2024-04-30',
      ingest: false,
    });

    expect(runs).toBe(1);
    expect(record.screened).toEqual([]);
    expect(result).toMatchObject({ phase: 'done', totalChunks: 0, doneChunks: 0, published: 0 });
  }, 60_000);
});
