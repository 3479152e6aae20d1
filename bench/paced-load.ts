/**
 * Open-loop load at a fixed rate, for latency under load. autocannon's rate option sends
 * each second's quota in a burst at the start of the second, so its p99 measures the burst;
 * this sends requests evenly (every millisecond, rate/1000 of them) over at most 50 keep-alive
 * connections and times each from its scheduled start, so a slow server cannot hide queueing
 * (no coordinated omission). It runs in a worker thread (paced-load-worker.mjs), beside the
 * server's event loop, as autocannon's worker does.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface PacedLoadOptions {
  url: string;
  paths: string[];
  headers?: Record<string, string>;
  ratePerSecond: number;
  seconds: number;
  connections?: number;
  /** A request unanswered this long (ms) is abandoned and counted as an error (status `timeout`); default: wait. */
  timeoutMs?: number;
}

export interface PacedLoadFigures {
  sent: number;
  completed: number;
  errors: number;
  /** Responses by HTTP status. */
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Runs the paced load in a worker thread and returns its figures. */
export function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadFigures> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./paced-load-worker.mjs', import.meta.url), { workerData: options });
    worker.once('message', (figures: PacedLoadFigures) => {
      resolve(figures);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/**
 * The same paced load from a Node process of its own: the generator then competes with the
 * server for the machine's cores, not for its event loop or heap (as an external tool would).
 */
export function pacedLoadInProcess(options: PacedLoadOptions): Promise<PacedLoadFigures> {
  return jsonFromScript<PacedLoadFigures>(new URL('./paced-load-worker.mjs', import.meta.url), options);
}

/**
 * Runs a bench client script (plain JavaScript) in a Node process of its own: `input` as JSON on its
 * stdin (a list of thousands of paths exceeds one argument's limit), its stdout parsed as JSON.
 */
export function jsonFromScript<T>(script: URL, input: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(script)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${fileURLToPath(script)} exited with ${code}`)),
    );
    child.stdin.end(JSON.stringify(input));
  });
}

/**
 * Offered loads for latency runs (requests per second over 50 connections). The paced
 * generator shares the machine with the server and costs more per request than autocannon's
 * client, so every sweep is read beside the bare route's sweep at the same rates.
 */
export const PACED_RATES = [250, 500, 1_000, 2_000];

export type PacedRun = PacedLoadFigures & { ratePerSecond: number };

/** Paced runs at each of PACED_RATES below `below` (the route's flat-out rate). */
export async function pacedSweep(
  url: string,
  paths: string[],
  seconds: number,
  headers: Record<string, string>,
  below: number,
): Promise<PacedRun[]> {
  const runs: PacedRun[] = [];
  for (const ratePerSecond of PACED_RATES.filter((rate) => rate < below)) {
    runs.push({ ...(await pacedLoad({ url, paths, headers, ratePerSecond, seconds, connections: 50 })), ratePerSecond });
  }
  return runs;
}
