import { readFile } from 'node:fs/promises';
import { DeterminismViolationError } from '@temporalio/workflow';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleWorkflows } from '../../platform/worker.ts';

const HISTORY = new URL('../fixtures/histories/lake-maintenance.json', import.meta.url);

async function loadHistory(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(HISTORY, 'utf8')) as Record<string, unknown>;
}

describe('workflow replay (determinism)', () => {
  let bundle: WorkflowBundleWithSourceMap;
  beforeAll(async () => {
    bundle = await bundleWorkflows();
  });

  it('when the recorded lakeMaintenance history is replayed against today\'s code, then it replays cleanly', async () => {
    const history = await loadHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history, 'lake-maintenance')).resolves.toBeUndefined();
  });

  it('when the history is tampered (another activity was scheduled), then replay fails with a determinism violation', async () => {
    const json = await loadHistory();
    const tampered = JSON.parse(JSON.stringify(json).replace('"name": "sweepLakeTempFiles"', '"name": "compactLake"').replace('"name":"sweepLakeTempFiles"', '"name":"compactLake"')) as Record<string, unknown>;
    expect(JSON.stringify(tampered)).toContain('compactLake');
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, tampered, 'tampered')).rejects.toBeInstanceOf(
      DeterminismViolationError,
    );
  });
});
