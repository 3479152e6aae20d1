import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { forgetOwner, GUARD_NAME, GUARD_SCRIPT, isAlive, recordOwner, replaceStaleDevServers, stopProcess } from './dev-server-guard.ts';

export interface DevServerOptions {
  cliPath: string;
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
  /** How long to wait for the frontend to answer before giving up. */
  startTimeoutMs?: number;
  /** Where a stale dev server that was stopped and replaced is reported. */
  warn?: (message: string, fields: Record<string, unknown>) => void;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  dbFile: string;
  /** The `temporal` process itself (its guard shell is its parent). */
  pid: number;
  /** Stops the server (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Temporal's dev-server SQLite file lives under DATA_DIR so workflow history survives restarts. */
export function devServerDbFile(dataDir: string): string {
  return path.join(dataDir, 'temporal', 'dev-server.sqlite');
}

/** Resolves once the Temporal frontend at `address` answers a health check. */
export async function waitForTemporal(address: string, timeoutMs: number, alive?: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (alive && !alive()) throw new Error('the Temporal dev server exited before it answered');
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

/** The pid the guard shell prints first: the `temporal` process it started. */
function serverPidOf(guard: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    guard.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^(\d+)\n/.exec(out);
      if (line) resolve(Number(line[1]));
    });
    guard.once('exit', (code) => reject(new Error(`the dev server's guard exited with ${code} before starting it`)));
  });
}

async function portInUse(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts `temporal server start-dev` on loopback with its SQLite file under DATA_DIR, under the
 * dead-man switch of dev-server-guard.ts, after replacing a stale one left on the same DATA_DIR.
 * The guard runs in a process group of its own, so Ctrl-C in a terminal reaches faithscreen only,
 * which then stops the server last, after the worker has drained.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const dbFile = devServerDbFile(options.dataDir);
  await mkdir(path.dirname(dbFile), { recursive: true });
  await replaceStaleDevServers(dbFile, options.warn ?? (() => undefined));
  if (await portInUse(options.port)) {
    throw new Error(`TEMPORAL_DEV_PORT ${options.port} is already in use by another program on 127.0.0.1; stop it or choose another port`);
  }
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--ui-port',
    String(options.uiPort),
    '--db-filename',
    dbFile,
    '--namespace',
    options.namespace,
    '--log-level',
    'error',
  ];
  const guard = spawn('/bin/sh', ['-c', GUARD_SCRIPT, GUARD_NAME, options.cliPath, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  guard.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const pid = await serverPidOf(guard);
  const address = `127.0.0.1:${options.port}`;
  const stop = async (): Promise<void> => {
    // Closing the guard's stdin is the switch; the server's own pid is stopped too, in case the guard is gone.
    guard.stdin?.end();
    await stopProcess(pid);
    await waitForExit(guard);
    await forgetOwner(dbFile);
  };
  try {
    await waitForTemporal(address, options.startTimeoutMs ?? 60_000, () => isAlive(pid));
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}${stderr ? `\n${stderr.trim()}` : ''}`);
  }
  await recordOwner(dbFile, { ownerPid: process.pid, serverPid: pid, port: options.port });
  return { address, uiUrl: `http://127.0.0.1:${options.uiPort}`, dbFile, pid, stop };
}
