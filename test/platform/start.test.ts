import { readFileSync, statSync } from 'node:fs';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { countSnapshots } from '../../warehouse/lake-queries.ts';
import { freePort } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { autogroupNice, autogroupsOn, threadNiceValues } from '../support/process-priority.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;

async function waitForHttp(url: string, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
}

/** The pids of the worker processes `start` reported polling, in order. */
function workerPids(output: string): number[] {
  return [...output.matchAll(/"worker_pid":(\d+),"msg":"worker process polling"/g)].map((match) => Number(match[1]));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(250);
}

async function processesMentioning(text: string): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'pid,args']);
  return stdout.split('\n').filter((line) => line.includes(text) && !line.includes('ps -eo'));
}

describe('faithscreen start (the embedded default)', () => {
  let child: ChildProcess | undefined;
  let temp: Awaited<ReturnType<typeof makeTempDir>> | undefined;
  afterAll(async () => {
    // After a failed assertion `start` still runs: stop it the way an operator would, so its worker stops writing
    // to the directory before the directory is removed.
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(30_000)]);
      child.kill('SIGKILL');
    }
    if (temp) {
      const dir = temp.dir;
      const deadline = Date.now() + 30_000;
      while ((await processesMentioning(dir)).length > 0 && Date.now() < deadline) await sleep(250);
    }
    await temp?.cleanup();
  }, 90_000);

  it(
    'when started on an empty warehouse, then the dev server, worker and API come up and the first screen is published; on SIGTERM ' +
      'everything stops and nothing is orphaned',
    { timeout: 360_000 },
    async () => {
      temp = await makeTempDir('faithscreen-start-');
      const [port, devPort, uiPort] = [await freePort(), await freePort(), await freePort()];
      let output = '';
      child = spawn(process.execPath, [BIN, 'start'], {
        env: {
          ...process.env,
          DATA_DIR: temp.dir,
          PORT: String(port),
          TEMPORAL_DEV_PORT: String(devPort),
          TEMPORAL_UI_PORT: String(uiPort),
          TEMPORAL_ADDRESS: '',
          SAMPLE_SCALE: '0.001',
          BOOTSTRAP_BACKFILL_YEARS: '5',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

      const health = await waitForHttp(`http://127.0.0.1:${port}/healthz`, 120_000);
      expect(health.status).toBe(200);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(await ready.json()).toMatchObject({ status: 'ready' });
      expect(output).toContain(`API          http://127.0.0.1:${port}`);
      expect(output).toContain(`Temporal UI  http://127.0.0.1:${uiPort}`);
      expect(output).toContain(`${temp.dir}/warehouse.duckdb`);
      expect(await processesMentioning(temp.dir)).not.toEqual([]);
      // The first start is the demo: with an empty warehouse it loads the sample and screens it.
      // A bound for a loaded 2-core machine, not a speed target (the first start's figures are benches).
      const deadline = Date.now() + 180_000;
      while (!output.includes('first universe screen published') && Date.now() < deadline) await sleep(500);
      expect(output).toContain('first universe screen published');
      expect(await withDuckDB(':memory:', {}, (c) => countSnapshots(c, temp!.dir))).toBeGreaterThan(0);

      // The demo's API key is in a 0600 file, not in the output, and the API accepts it.
      const demoKey = readFileSync(`${temp.dir}/demo-api-key`, 'utf8').trim();
      expect(statSync(`${temp.dir}/demo-api-key`).mode & 0o777).toBe(0o600);
      expect(output).toContain(`API key      in ${temp.dir}/demo-api-key`);
      expect(output).not.toContain(demoKey);
      const scope = await fetch(`http://127.0.0.1:${port}/api/screen/frameworks`, { headers: { 'X-API-Key': demoKey } });
      expect(((await scope.json()) as { key_scope?: unknown }).key_scope).toEqual({
        allowed_frameworks: null,
        allowed_markets: null,
        allowed_endpoints: null,
      });
      expect((await fetch(`http://127.0.0.1:${port}/api/screen/us/AAPL`)).status).toBe(401);

      // The worker is a process of its own, every thread of it at the lower CPU priority (WORKER_NICE, default 10).
      const [firstWorker] = workerPids(output);
      expect(firstWorker).toBeDefined();
      expect(firstWorker).not.toBe(child.pid);
      expect(new Set(threadNiceValues(firstWorker!))).toEqual(new Set([10]));
      expect(new Set(threadNiceValues(child.pid!))).toEqual(new Set([0]));
      // In its own session, the worker's scheduler group is lowered too (where the kernel groups by session).
      expect([autogroupNice(firstWorker!), autogroupNice(child.pid!)]).toEqual(autogroupsOn() ? [10, 0] : [null, null]);
      // A worker that dies is restarted; the API keeps answering meanwhile.
      process.kill(firstWorker!, 'SIGKILL');
      await waitFor(() => workerPids(output).length >= 2, 90_000);
      expect(output).toMatch(
        /"worker_pid":\d+,"code":null,"signal":"SIGKILL","restart_in_ms":1000,"msg":"worker process exited unexpectedly; restarting it"/,
      );
      const [, secondWorker] = workerPids(output);
      expect(secondWorker).not.toBe(firstWorker);
      expect(alive(secondWorker!)).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      // SIGTERM while the first-start backfill is still being followed: a clean stop, exit 0.
      const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).not.toMatch(/Channel has been shut down|Uncaught|unhandled/i);
      expect(await processesMentioning(temp.dir)).toEqual([]);
      expect(alive(secondWorker!)).toBe(false);
      expect(output).toMatch(/"component":"worker-process","msg":"stopped"/);
      expect(output).toMatch(/"component":"temporal-dev-server","msg":"stopped"/);
    },
  );

  it(
    'when the start process is killed outright, then its worker process shuts itself down: never orphaned',
    { timeout: 180_000 },
    async () => {
      const dir = await makeTempDir('faithscreen-start-kill-');
      try {
        const [port, devPort, uiPort] = [await freePort(), await freePort(), await freePort()];
        let output = '';
        const start = spawn(process.execPath, [BIN, 'start'], {
          env: {
            ...process.env,
            DATA_DIR: dir.dir,
            PORT: String(port),
            TEMPORAL_DEV_PORT: String(devPort),
            TEMPORAL_UI_PORT: String(uiPort),
            TEMPORAL_ADDRESS: '',
            SAMPLE_SCALE: '0.001',
            BOOTSTRAP_BACKFILL_YEARS: '0',
            WORKER_NICE: '0',
            LOG_LEVEL: 'info',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        start.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        start.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        await waitFor(() => output.includes('faithscreen is running'), 120_000);
        const [worker] = workerPids(output);
        expect(worker).toBeDefined();
        // WORKER_NICE=0 leaves the worker's priority unchanged.
        expect(new Set(threadNiceValues(worker!))).toEqual(new Set([0]));
        const exited = new Promise((resolve) => start.once('exit', resolve));
        start.kill('SIGKILL');
        await exited;
        await waitFor(() => !alive(worker!), 60_000);
        expect(alive(worker!)).toBe(false);
        await waitFor(() => output.includes('"reason":"parent process gone"'), 5_000);
        expect(output).toContain('"reason":"parent process gone"');
      } finally {
        await dir.cleanup();
      }
    },
  );

  it('when the configuration is invalid, then it exits 2 with one message listing every problem', async () => {
    const failure = await run(process.execPath, [BIN, 'api'], { env: { ...process.env, PORT: 'x', LOG_LEVEL: 'loud' } }).catch(
      (e: unknown) => e,
    );
    const { code, stderr } = failure as { code: number; stderr: string };
    expect(code).toBe(2);
    expect(stderr).toMatch(/invalid configuration/);
    expect(stderr).toMatch(/PORT:/);
    expect(stderr).toMatch(/LOG_LEVEL:/);
  });
});
