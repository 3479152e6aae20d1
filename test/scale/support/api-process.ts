import { spawn, type ChildProcess } from 'node:child_process';
import { runFaithscreen } from '../../api/support/attest-fixture.ts';
import { freePort } from '../../support/http.ts';
import { testServiceEnv } from '../../support/service-state.ts';

const BIN = new URL('../../../bin/faithscreen.js', import.meta.url).pathname;

export interface ApiProcess {
  url: string;
  child: ChildProcess;
}

/** `faithscreen api` as its own process on DATA_DIR and DATABASE_URL; Temporal is never called (the lazy client only connects for refreshes). */
/** `extra` overrides the environment (another DATABASE_URL than the DATA_DIR's own test database). */
export async function startApiProcess(dataDir: string, extra: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await freePort();
  const env = {
    ...process.env,
    ...(await testServiceEnv(dataDir)),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
    ...extra,
  };
  const child = spawn(process.execPath, [BIN, 'api'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`faithscreen api exited with ${child.exitCode} before answering`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child };
    if (Date.now() > deadline) throw new Error('faithscreen api did not answer /healthz within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function stop(api: ApiProcess | undefined): Promise<void> {
  if (!api || api.child.exitCode !== null) return;
  const exited = new Promise((resolve) => api.child.once('exit', resolve));
  api.child.kill('SIGTERM');
  await exited;
}

export async function cli(dataDir: string, ...args: string[]): Promise<string> {
  const result = await runFaithscreen(dataDir, args);
  if (result.code !== 0) throw new Error(`faithscreen ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

export async function newKey(dataDir: string, account: string, ...flags: string[]): Promise<{ key: string; key_id: string }> {
  await cli(dataDir, 'accounts', 'create', account, '--tier', 'partner');
  return JSON.parse(await cli(dataDir, 'keys', 'create', '--account', account, ...flags, '--json')) as { key: string; key_id: string };
}
