import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { onTestFinished } from 'vitest';
import { createActivities, threadedChunkRunner, type PipelineData } from '../../activities/index.ts';
import { createLakePipelineData } from '../../activities/lake-pipeline-data.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { catalogPath } from '../../warehouse/lake-paths.ts';
import { readSql, type Sql } from '../../warehouse/sql.ts';

/** The sample scale pipeline tests use: every market, a handful of tickers each. */
export const TEST_SCALE = 0.002;

export const testSource = { source: 'sample' as const, scale: TEST_SCALE };

/**
 * A worker with the real activities over `dataDir`, screening chunks in worker threads as the
 * production worker does; with `decorate`, chunks run in the test's thread over the decorated
 * data port instead (a port cannot cross into a thread). Call inside a test: the thread pool
 * closes when it finishes.
 */
export function createTestWorker(
  env: TestWorkflowEnvironment,
  bundle: WorkflowBundleWithSourceMap,
  dataDir: string,
  taskQueue: string,
  decorate?: (data: PipelineData) => PipelineData,
): Promise<Worker> {
  const data = createLakePipelineData(dataDir);
  const deps = decorate ? { data: decorate(data) } : { data, chunks: threadedChunkRunner({ dataDir, threads: 2 }) };
  if (deps.chunks) onTestFinished(() => deps.chunks.close());
  return Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: createActivities({ dataDir, source: testSource, ...deps }),
  });
}

/** Runs one read-only query against the catalog researchers open. */
export async function catalogQuery(dataDir: string, query: string | Sql): Promise<Array<Record<string, unknown>>> {
  return withDuckDB(
    catalogPath(dataDir),
    { readOnly: true },
    async (c) =>
      (await (typeof query === 'string' ? c.runAndReadAll(query) : readSql(c, query))).getRowObjectsJson() as Array<
        Record<string, unknown>
      >,
  );
}
