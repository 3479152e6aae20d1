import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsOnTaskQueue, visibilityString } from '../../platform/visibility-query.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;
const QUOTED = "o'brien";

describe('faithscreen runs: the task queue goes into the visibility query as a quoted string', () => {
  let env: TestWorkflowEnvironment;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  const runs = (taskQueue: string) =>
    run(process.execPath, [BIN, 'runs'], {
      env: { ...process.env, TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: taskQueue, DATA_DIR: temp.dir, LOG_LEVEL: 'silent' },
    });

  beforeAll(async () => {
    [env, temp] = await Promise.all([startTestTemporal(), makeTempDir('faithscreen-runs-')]);
    // No worker: the runs only need to exist to be listed.
    for (const [taskQueue, workflowId] of [
      [QUOTED, 'run-on-quoted-queue'],
      ['plain', 'run-on-plain-queue'],
    ] as const)
      await env.client.workflow.start('nightlyScreen', { taskQueue, workflowId, args: [{}] });
    // Visibility is written shortly after the start.
    for (let tries = 0; tries < 50; tries += 1) {
      const listed = [];
      for await (const execution of env.client.workflow.list()) listed.push(execution.workflowId);
      if (listed.length >= 2) break;
      await sleep(100);
    }
  }, 180_000);
  afterAll(async () => {
    await env?.teardown();
    await temp?.cleanup();
  });

  it('when the value holds a quote or a backslash, then it is escaped inside one string literal', () => {
    expect(visibilityString("o'brien\\x")).toBe("'o\\'brien\\\\x'");
    expect(runsOnTaskQueue('faithscreen')).toBe("TaskQueue = 'faithscreen'");
  });

  it('when the task queue name holds a quote, then runs lists exactly the runs on that queue', async () => {
    const { stdout } = await runs(QUOTED);
    expect(stdout).toContain('run-on-quoted-queue');
    expect(stdout).not.toContain('run-on-plain-queue');
  });

  it.each(["nothing' OR TaskQueue != '", "nothing\\' OR TaskQueue != '"])(
    'when the task queue name %s tries to widen the query, then it is one literal that matches no queue',
    async (taskQueue) => {
      const { stdout } = await runs(taskQueue);
      expect(stdout).toBe('no runs yet\n');
    },
  );
});
