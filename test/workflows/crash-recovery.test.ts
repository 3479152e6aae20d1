import { spawn, type ChildProcess } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSource } from '../../sources/ingest.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { TEMP_PREFIX } from '../../warehouse/publish.ts';
import { cadenceDates } from '../../workflows/cadence.ts';
import type { RunProgress } from '../../workflows/run-progress.ts';
import { catalogQuery, TEST_SCALE, testSource } from '../support/pipeline-env.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;
const TO = '2026-11-20';

function startWorkerProcess(env: TestWorkflowEnvironment, dataDir: string): ChildProcess {
  return spawn(process.execPath, [BIN, 'worker'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      TEMPORAL_ADDRESS: env.address,
      TEMPORAL_TASK_QUEUE: 'crash',
      SAMPLE_SCALE: String(TEST_SCALE),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function tempFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true });
  return entries.map(String).filter((name) => name.split('/').at(-1)!.startsWith(TEMP_PREFIX));
}

describe('crash safety', () => {
  let env: TestWorkflowEnvironment;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    [env, temp] = await Promise.all([startTestTemporal(), makeTempDir('faithscreen-crash-')]);
    await ingestSource({ ...testSource, dataDir: temp.dir, asOf: TO });
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await env?.teardown();
    await temp?.cleanup();
  });

  it(
    'when the worker is SIGKILLed mid-backfill and a new one starts, then the run completes with exactly one snapshot per key and no temp file left',
    { timeout: 240_000 },
    async () => {
      const first = startWorkerProcess(env, temp.dir);
      children.push(first);
      const handle = await env.client.workflow.start('backfill', {
        taskQueue: 'crash',
        workflowId: 'backfill-crash',
        args: [{ from: '2009-01-01', to: TO, cadence: 'quarter-end', chunkSize: 6, concurrency: 2 }],
      });
      let progress: RunProgress | undefined;
      while ((progress?.doneChunks ?? 0) < 3) {
        await sleep(200);
        progress = await handle.query<RunProgress>('progress').catch(() => undefined);
      }
      expect(progress!.doneChunks).toBeLessThan(progress!.totalChunks);
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));

      const second = startWorkerProcess(env, temp.dir);
      children.push(second);
      const result = (await handle.result()) as RunProgress;

      expect(result).toMatchObject({ phase: 'done', failedCount: 0 });
      const dates = cadenceDates('2009-01-01', TO, 'quarter-end');
      const [expected] = await catalogQuery(
        temp.dir,
        `WITH l AS (SELECT DISTINCT market, ticker, listed_on FROM universe WHERE kind = 'stock' AND (listed_on IS NULL OR listed_on <= DATE '${TO}')),
            d AS (SELECT unnest([${dates.map((d) => `DATE '${d}'`).join(', ')}]) AS day)
       SELECT count(*)::INT AS n FROM l JOIN d ON l.listed_on IS NULL OR l.listed_on <= d.day`,
      );
      const [actual] = await catalogQuery(
        temp.dir,
        "SELECT count(*)::INT AS rows, count(DISTINCT (market, ticker, snapshot_date))::INT AS keys FROM snapshots WHERE source = 'backfill'",
      );
      expect(actual).toEqual({ rows: expected!.n, keys: expected!.n });
      expect(await tempFiles(lakeRoot(temp.dir))).toEqual([]);
    },
  );
});
