import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { publishFile } from '../warehouse/publish.ts';
import type { FailedTicker } from './pipeline-types.ts';

/** The directory of every run's failure lists (its temp files are swept like the lake's). */
export function runsRoot(dataDir: string): string {
  return path.join(dataDir, 'runs');
}

/** Where a run's failure lists live, relative to DATA_DIR: `runs/<runId>/`. */
export function runFailuresDir(runId: string): string {
  return path.join('runs', runId);
}

/**
 * Publishes a chunk's complete list of failed tickers as NDJSON (`{market, ticker, reason}` per
 * line) under `DATA_DIR/runs/<runId>/failed-<stem>.ndjson`, atomically; returns the path
 * relative to DATA_DIR. The workflow keeps only a sample and the count: this file is the record.
 */
export async function writeChunkFailures(dataDir: string, runId: string, stem: string, failed: readonly FailedTicker[]): Promise<string> {
  const relative = path.join(runFailuresDir(runId), `failed-${stem}.ndjson`);
  const body = failed.map((f) => JSON.stringify({ market: f.market, ticker: f.ticker, reason: f.reason })).join('\n') + '\n';
  await publishFile(path.join(dataDir, relative), (temp) => writeFile(temp, body, 'utf8'));
  return relative;
}
