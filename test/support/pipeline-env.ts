import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities, type PipelineData } from '../../activities/index.ts';
import { createLakePipelineData } from '../../activities/lake-pipeline-data.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { catalogPath } from '../../warehouse/lake-paths.ts';

/** The sample scale pipeline tests use: every market, a handful of tickers each. */
export const TEST_SCALE = 0.002;

export const testSource = { source: 'sample' as const, scale: TEST_SCALE };

/** A worker with the real activities over `dataDir` (optionally a decorated data port). */
export function createTestWorker(
  env: TestWorkflowEnvironment,
  bundle: WorkflowBundleWithSourceMap,
  dataDir: string,
  taskQueue: string,
  decorate: (data: PipelineData) => PipelineData = (data) => data,
): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: createActivities({ dataDir, source: testSource, data: decorate(createLakePipelineData(dataDir)) }),
  });
}

/** Runs one read-only query against the catalog researchers open. */
export async function catalogQuery(dataDir: string, sql: string): Promise<Array<Record<string, unknown>>> {
  return withDuckDB(catalogPath(dataDir), { readOnly: true }, async (c) => (await c.runAndReadAll(sql)).getRowObjectsJson() as Array<Record<string, unknown>>);
}
