import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSource } from '../../sources/ingest.ts';
import type { RunProgress } from '../../workflows/run-progress.ts';
import { catalogQuery, TEST_SCALE, testSource } from '../support/pipeline-env.ts';
import { resultWithin, startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;
const DATE = '2026-11-20';
const QUEUE = 'two-workers';

/** `faithscreen worker` as its own process on the shared DATA_DIR (the lake volume of docker-compose.yml). */
function startWorkerProcess(env: TestWorkflowEnvironment, dataDir: string): ChildProcess {
  return spawn(process.execPath, [BIN, 'worker'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      TEMPORAL_ADDRESS: env.address,
      TEMPORAL_TASK_QUEUE: QUEUE,
      SAMPLE_SCALE: String(TEST_SCALE),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The last few kB each worker wrote (its log on stdout, anything else on stderr), quoted when the run does not finish. */
function outputTail(worker: ChildProcess): () => string {
  let tail = '';
  const keep = (text: string) => {
    tail = (tail + text).slice(-4_000);
  };
  worker.stdout?.setEncoding('utf8').on('data', keep);
  worker.stderr?.setEncoding('utf8').on('data', keep);
  return () => `worker ${worker.pid} (exit ${worker.exitCode ?? 'running'}): ${tail || '(no output)'}`;
}

describe('two worker processes on one task queue', () => {
  let env: TestWorkflowEnvironment;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    [env, temp] = await Promise.all([startTestTemporal(), makeTempDir('faithscreen-two-workers-')]);
    await ingestSource({ ...testSource, dataDir: temp.dir, asOf: DATE });
  }, 180_000);
  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await env?.teardown();
    await temp?.cleanup();
  });

  it(
    'when a nightly run starts, then both workers take chunks of it and every stock is published exactly once',
    { timeout: 300_000 },
    async () => {
      workers.push(startWorkerProcess(env, temp.dir), startWorkerProcess(env, temp.dir));
      const tails = workers.map(outputTail);
      const [row] = await catalogQuery(temp.dir, "SELECT count(DISTINCT (market, ticker))::INT AS n FROM universe WHERE kind = 'stock'");
      const listings = Number(row?.n);
      // Both workers poll the activity queue before the run starts, so neither finds it already taken.
      for (const deadline = Date.now() + 120_000; ;) {
        if (Date.now() > deadline) throw new Error(`two workers never polled the queue: ${tails.map((tail) => tail()).join('; ')}`);
        const queue = await env.client.workflowService.describeTaskQueue({
          namespace: 'default',
          taskQueue: { name: QUEUE },
          taskQueueType: 2 /* ACTIVITY */,
        });
        if ((queue.pollers ?? []).length >= 2) break;
        await sleep(250);
      }
      const handle = await env.client.workflow.start('nightlyScreen', {
        taskQueue: QUEUE,
        workflowId: 'nightly-two-workers',
        args: [{ date: DATE, ingest: false, chunkSize: 5 }],
      });
      const result = await resultWithin<RunProgress>(handle, 240_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${tails.map((tail) => tail()).join('\n')}`);
      });
      expect(result).toMatchObject({ phase: 'done', published: listings, failedCount: 0 });

      // Which worker ran each activity: Temporal records the worker's identity (pid@host) when it starts one.
      const history = await handle.fetchHistory();
      const identities = new Set(
        history.events!.map((e) => e.activityTaskStartedEventAttributes?.identity).filter((identity): identity is string => !!identity),
      );
      expect(identities.size).toBe(2);

      const [counts] = await catalogQuery(
        temp.dir,
        `SELECT count(*)::INT AS n, count(DISTINCT (market, ticker))::INT AS k FROM snapshots WHERE source = 'nightly' AND snapshot_date = DATE '${DATE}'`,
      );
      expect(counts).toEqual({ n: listings, k: listings });
    },
  );
});
