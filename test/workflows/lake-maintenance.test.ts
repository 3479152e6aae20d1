import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import { bundleWorkflows } from '../../platform/worker.ts';
import { latestCatalogVersion } from '../../warehouse/catalog.ts';
import { TEMP_PREFIX } from '../../warehouse/publish.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';

describe('lakeMaintenance workflow on a real Temporal dev server', () => {
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundleWithSourceMap;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    [env, bundle, temp] = await Promise.all([startTestTemporal(), bundleWorkflows(), makeTempDir()]);
  });
  afterAll(async () => {
    await env?.teardown();
    await temp?.cleanup();
  });

  it('when a dead writer left a temp file, then the run removes it and migrates the catalog', async () => {
    const dir = path.join(temp.dir, 'lake', 'snapshots', 'market=us');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `${TEMP_PREFIX}x.parquet.999999998.bbbbbb`), 'orphan');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: 'maintenance-test',
      workflowBundle: bundle,
      activities: createActivities({ dataDir: temp.dir, source: { source: 'sample', scale: 0.001 } }),
    });

    const result = await worker.runUntil(
      env.client.workflow.execute('lakeMaintenance', { taskQueue: 'maintenance-test', workflowId: 'maintenance-test-1' }),
    );

    expect(result).toEqual({
      tempFilesRemoved: 1,
      catalogVersion: latestCatalogVersion(),
      migrationsApplied: expect.arrayContaining(['1-catalog-meta']),
    });
    expect(await readdir(dir)).toEqual([]);
  });
});
