import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import { parseConfig } from '../../platform/config.ts';
import { Lifecycle } from '../../platform/lifecycle.ts';
import { MAINTENANCE_SCHEDULE_ID } from '../../platform/maintenance-schedule.ts';
import { NIGHTLY_SCHEDULE_ID } from '../../platform/nightly-schedule.ts';
import { scheduleRecurringRuns } from '../../platform/roles.ts';
import { bundleWorkflows } from '../../platform/worker.ts';
import type { LakeMaintenanceResult } from '../../workflows/lake-maintenance.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;
const TASK_QUEUE = 'schedules-test';

describe('recurring Schedules on a real Temporal dev server', () => {
  let env: TestWorkflowEnvironment;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let worker: Worker;
  let running: Promise<void>;
  const start = (extra: Record<string, string> = {}) => {
    const config = parseConfig({ TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: TASK_QUEUE, DATA_DIR: temp.dir, ...extra });
    const logger = pino({ level: 'silent' });
    return scheduleRecurringRuns({ config, logger, lifecycle: new Lifecycle(logger) });
  };
  const cli = (...args: string[]) =>
    run(process.execPath, [BIN, 'schedule', ...args], {
      env: { ...process.env, TEMPORAL_ADDRESS: env.address, DATA_DIR: temp.dir, LOG_LEVEL: 'silent' },
    });
  const scheduleIds = async () => {
    const ids: string[] = [];
    for await (const schedule of env.client.schedule.list()) ids.push(schedule.scheduleId);
    return ids.sort();
  };

  beforeAll(async () => {
    const [started, bundle, dir] = await Promise.all([startTestTemporal(), bundleWorkflows(), makeTempDir('faithscreen-schedules-')]);
    [env, temp] = [started, dir];
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: TASK_QUEUE,
      workflowBundle: bundle,
      activities: createActivities({ dataDir: temp.dir, source: { source: 'sample', scale: 0.001 } }),
    });
    running = worker.run();
  }, 120_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
    await temp?.cleanup();
  });

  it('when the worker starts twice, then exactly one nightly and one maintenance Schedule exist, updated to the new hour, a paused one still paused', async () => {
    await start({ LAKE_MAINTENANCE_HOUR: '5' });
    await env.client.schedule.getHandle(MAINTENANCE_SCHEDULE_ID).pause('operator paused it');

    await start({ LAKE_MAINTENANCE_HOUR: '6', NIGHTLY_SCREEN_HOUR: '1' });

    expect(await scheduleIds()).toEqual([MAINTENANCE_SCHEDULE_ID, NIGHTLY_SCHEDULE_ID].sort());
    const maintenance = await env.client.schedule.getHandle(MAINTENANCE_SCHEDULE_ID).describe();
    expect(maintenance.state.paused).toBe(true);
    expect(maintenance.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 6, end: 6, step: 1 }] });
    expect(maintenance.action).toMatchObject({ type: 'startWorkflow', workflowType: 'lakeMaintenance', taskQueue: TASK_QUEUE });
    const nightly = await env.client.schedule.getHandle(NIGHTLY_SCHEDULE_ID).describe();
    expect(nightly.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 1, end: 1, step: 1 }] });
    expect(nightly.action).toMatchObject({ workflowType: 'nightlyScreen' });
  });

  it('when `faithscreen schedule resume maintenance` then `trigger maintenance` run, then a lakeMaintenance run starts and completes', async () => {
    const resumed = JSON.parse((await cli('resume', 'maintenance', '--note', 'test')).stdout) as { id: string; paused: boolean };
    expect(resumed).toMatchObject({ id: MAINTENANCE_SCHEDULE_ID, paused: false });

    await cli('trigger', 'maintenance');

    const handle = env.client.schedule.getHandle(MAINTENANCE_SCHEDULE_ID);
    let recent = (await handle.describe()).info.recentActions;
    for (let tries = 0; recent.length === 0 && tries < 100; tries += 1) {
      await sleep(100);
      recent = (await handle.describe()).info.recentActions;
    }
    const workflowId = recent[0]!.action.workflow.workflowId;
    expect(workflowId).toMatch(/^lake-maintenance-/);
    const result: LakeMaintenanceResult = await env.client.workflow.getHandle(workflowId).result();
    expect(result.compaction).toEqual({ partitions: 0, filesBefore: 0, filesAfter: 0, rows: 0 });
  });

  it('when `faithscreen schedule show` names no Schedule, then it shows both', async () => {
    const shown = JSON.parse((await cli('show')).stdout) as Array<{ name: string; id: string }>;
    expect(shown.map((s) => [s.name, s.id])).toEqual([
      ['nightly', NIGHTLY_SCHEDULE_ID],
      ['maintenance', MAINTENANCE_SCHEDULE_ID],
    ]);
  });

  it('when `faithscreen schedule` names an unknown Schedule or action, then it exits non-zero naming what is valid', async () => {
    const unknownName = (await cli('show', 'weekly').catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(unknownName.code).toBe(1);
    expect(unknownName.stderr).toMatch(/expected one of nightly, maintenance; got "weekly"/);
    const unknownAction = (await cli('stop', 'maintenance').catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(unknownAction.code).toBe(1);
    expect(unknownAction.stderr).toMatch(/unknown action "stop": use pause, resume, trigger, show/);
  });
});
