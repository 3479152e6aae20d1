/**
 * A faithscreen role as the README runs it (`faithscreen api`, or `faithscreen start` = `npm
 * start`: the dev server, the API, and the worker as its child process), started as a process of its own for a benchmark, and
 * the bare route's server beside it (bench/bare-route-server.mjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/faithscreen.js', import.meta.url));

export interface RunningProcess {
  url: string;
  pid: number;
  /** CPU time (user + system, every thread) the process has used so far, ms (Linux; else null). */
  cpuMs(): number | null;
  stop(): Promise<void>;
}

/** CPU time of a process (every thread) from /proc/<pid>/stat, ms; null off Linux. */
export function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** SIGTERM, then SIGKILL after `graceMs` (a worker draining a long activity). */
async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

function running(child: ChildProcess, url: string, graceMs: number): RunningProcess {
  return { url, pid: child.pid!, cpuMs: () => processCpuMs(child.pid!), stop: () => stopChild(child, graceMs) };
}

/** Runs a `faithscreen` CLI command to its end (or until `signal` stops it); its stdout. */
export function faithscreen(env: Record<string, string>, args: string[], signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(signal ? { signal } : {}),
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`faithscreen ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

/** Starts `faithscreen <role>` with `env` and resolves once its /healthz answers 200. */
export async function startRole(
  role: 'api' | 'start',
  env: Record<string, string>,
  url: string,
  readyWithinMs = 180_000,
): Promise<RunningProcess> {
  const child = spawn(process.execPath, [BIN, role], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`faithscreen ${role} exited with ${child.exitCode} before answering`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return running(child, url, 30_000);
    if (Date.now() > deadline) {
      await stopChild(child, 5_000);
      throw new Error(`faithscreen ${role} did not answer /healthz within ${readyWithinMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The bare route (bench/bare-route-server.mjs) serving `body`, in a process of its own. */
export async function startBareRoute(body: Buffer): Promise<RunningProcess> {
  const script = fileURLToPath(new URL('./bare-route-server.mjs', import.meta.url));
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(body);
  const port = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bare route server exited with ${code}`)));
  });
  return running(child, `http://127.0.0.1:${port}`, 5_000);
}
