import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { devServerDbFile } from '../../platform/dev-server.ts';
import { devServersOf, isAlive } from '../../platform/dev-server-guard.ts';
import { provisionTemporalCli } from '../../platform/temporal-cli.ts';
import { freePort } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(100);
  }
  return performance.now() - started;
}

describe('the embedded dev server never outlives faithscreen', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  const started: ChildProcess[] = [];
  let port: number;

  /** `faithscreen dev-server` on the test's DATA_DIR; resolves once it logged that the server is ready. */
  async function faithscreenDevServer(): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
    const child = spawn(process.execPath, [BIN, 'dev-server'], {
      env: {
        ...process.env,
        DATA_DIR: temp.dir,
        TEMPORAL_ADDRESS: '',
        TEMPORAL_DEV_PORT: String(port),
        TEMPORAL_UI_PORT: String(await freePort()),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await Promise.race([until(() => text.includes('Temporal dev server ready'), 120_000), exited]);
    return { child, output: () => text, exited };
  }

  /**
   * A dev server that came up, for the tests whose subject is what happens after the start: on a
   * loaded machine a start can time out (faithscreen then exits, saying so), so one more start is
   * tried on fresh ports, and a second failure fails the test with what faithscreen printed.
   */
  async function runningDevServer(): Promise<{ child: ChildProcess; server: number }> {
    let last = '';
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (attempt > 0) port = await freePort();
      const { child, output } = await faithscreenDevServer();
      const [server] = await devServersOf(devServerDbFile(temp.dir));
      if (server !== undefined && output().includes('Temporal dev server ready')) return { child, server };
      last = output();
      child.kill('SIGKILL');
    }
    throw new Error(`faithscreen dev-server did not come up twice; its output:\n${last}`);
  }

  beforeEach(async () => {
    temp = await makeTempDir('faithscreen-devserver-');
    port = await freePort();
  });
  afterEach(async () => {
    for (const child of started.splice(0)) child.kill('SIGKILL');
    for (const pid of await devServersOf(devServerDbFile(temp.dir))) killIfAlive(pid);
    await temp.cleanup();
  });

  it(
    'when faithscreen is killed with SIGKILL, then its dev server stops within seconds and frees its port',
    { timeout: 180_000 },
    async () => {
      const { child, server } = await runningDevServer();
      expect(await listening(port)).toBe(true);
      child.kill('SIGKILL');
      const stoppedAfterMs = await until(async () => !isAlive(server) && !(await listening(port)), 15_000);
      expect(stoppedAfterMs).toBeLessThan(15_000);
      expect(await devServersOf(devServerDbFile(temp.dir))).toEqual([]);
    },
  );

  it(
    'when a stale dev server of an earlier run holds this DATA_DIR, then the next start stops it, says so and starts its own',
    { timeout: 180_000 },
    async () => {
      // An orphan as an earlier build left it: started straight from the CLI, its parent long gone.
      const cli = await provisionTemporalCli();
      mkdirSync(path.dirname(devServerDbFile(temp.dir)), { recursive: true });
      const orphan = spawn(
        cli.path,
        [
          'server',
          'start-dev',
          '--ip',
          '127.0.0.1',
          '--port',
          String(port),
          '--ui-port',
          String(await freePort()),
          '--db-filename',
          devServerDbFile(temp.dir),
          '--log-level',
          'error',
        ],
        {
          detached: true,
          stdio: 'ignore',
        },
      );
      orphan.unref();
      await until(() => listening(port), 60_000);

      const { child, output, exited } = await faithscreenDevServer();
      expect(output()).toMatch(/stopping a stale Temporal dev server left on this DATA_DIR/);
      expect(output()).toContain(`"pid":${orphan.pid}`);
      expect(isAlive(orphan.pid!)).toBe(false);
      const [replacement] = await devServersOf(devServerDbFile(temp.dir));
      expect(replacement).not.toBe(orphan.pid);
      expect(await listening(port)).toBe(true);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await devServersOf(devServerDbFile(temp.dir))).toEqual([]);
    },
  );

  it(
    'when another running faithscreen owns the dev server of this DATA_DIR, then a second start is refused and the first keeps it',
    { timeout: 180_000 },
    async () => {
      const first = await faithscreenDevServer();
      const [server] = await devServersOf(devServerDbFile(temp.dir));
      const second = await faithscreenDevServer();
      expect(await second.exited).not.toBe(0);
      expect(second.output()).toMatch(new RegExp(`belongs to faithscreen pid ${first.child.pid}, which is still running`));
      expect(isAlive(server!)).toBe(true);
    },
  );
});

/** Clean-up kill: a dev server may exit on its own (its owner just died) between listing and killing it. */
function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
