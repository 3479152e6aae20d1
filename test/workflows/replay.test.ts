import { readdir, readFile } from 'node:fs/promises';
import { DeterminismViolationError } from '@temporalio/workflow';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleWorkflows } from '../../platform/worker.ts';

const HISTORIES = new URL('../fixtures/histories/', import.meta.url);

async function loadHistory(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(new URL(file, HISTORIES), 'utf8')) as Record<string, unknown>;
}

const files = (await readdir(HISTORIES)).filter((f) => f.endsWith('.json')).sort();

describe('workflow replay (determinism)', () => {
  let bundle: WorkflowBundleWithSourceMap;
  beforeAll(async () => {
    bundle = await bundleWorkflows();
  });

  it('has a recorded history for every pipeline workflow', () => {
    expect(files).toEqual([
      'backfill-saves-current-verdicts.json',
      'backfill.json',
      'lake-maintenance-saves-current-verdicts.json',
      'lake-maintenance.json',
      'nightly-screen.json',
      'refresh-ticker.json',
    ]);
  });

  it.each(['backfill-saves-current-verdicts.json', 'lake-maintenance-saves-current-verdicts.json'])(
    '%s was recorded while the run saved the lake copy of the current verdicts, so its replay covers that step',
    async (file) => {
      const text = JSON.stringify(await loadHistory(file));
      expect(text).toContain('"name":"saveCurrentVerdicts"');
      expect(text).toContain('"activityTaskCompletedEventAttributes"');
    },
  );

  it.each(files)("when the recorded %s is replayed against today's code, then it replays cleanly", async (file) => {
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, await loadHistory(file), file)).resolves.toBeUndefined();
  });

  it.each([
    ['lake-maintenance.json', 'sweepLakeTempFiles'],
    ['nightly-screen.json', 'planScreen'],
    ['backfill.json', 'planScreen'],
    ['lake-maintenance-saves-current-verdicts.json', 'saveCurrentVerdicts'],
    ['backfill-saves-current-verdicts.json', 'saveCurrentVerdicts'],
  ])('when %s is tampered (%s replaced by another activity), then replay fails with a determinism violation', async (file, activity) => {
    const text = JSON.stringify(await loadHistory(file));
    const tampered = JSON.parse(text.replaceAll(`"name":"${activity}"`, '"name":"compactSnapshotFiles"')) as Record<string, unknown>;
    expect(JSON.stringify(tampered)).not.toContain(`"name":"${activity}"`);
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, tampered, `tampered-${file}`)).rejects.toBeInstanceOf(
      DeterminismViolationError,
    );
  });
});
