import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';

export interface DevServerOptions {
  cliPath: string;
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
  /** How long to wait for the frontend to answer before giving up. */
  startTimeoutMs?: number;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  dbFile: string;
  /** Stops the server (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Temporal's dev-server SQLite file lives under DATA_DIR so workflow history survives restarts. */
export function devServerDbFile(dataDir: string): string {
  return path.join(dataDir, 'temporal', 'dev-server.sqlite');
}

/** Resolves once the Temporal frontend at `address` answers a health check. */
export async function waitForTemporal(address: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the Temporal dev server exited with code ${child.exitCode}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.healthService.check({});
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await sleep(250);
    }
  }
  throw new Error(`Temporal at ${address} did not become reachable within ${timeoutMs} ms: ${(lastError as Error)?.message}`);
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts `temporal server start-dev` on loopback with its SQLite file under DATA_DIR. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const dbFile = devServerDbFile(options.dataDir);
  await mkdir(path.dirname(dbFile), { recursive: true });
  const args = [
    'server', 'start-dev',
    '--ip', '127.0.0.1',
    '--port', String(options.port),
    '--ui-port', String(options.uiPort),
    '--db-filename', dbFile,
    '--namespace', options.namespace,
    '--log-level', 'error',
  ];
  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const address = `127.0.0.1:${options.port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await waitForExit(child);
    clearTimeout(killer);
  };
  try {
    await waitForTemporal(address, options.startTimeoutMs ?? 60_000, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}${stderr ? `\n${stderr.trim()}` : ''}`);
  }
  return { address, uiUrl: `http://127.0.0.1:${options.uiPort}`, dbFile, stop };
}
