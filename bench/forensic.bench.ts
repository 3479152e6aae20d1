/**
 * Forensic endpoints benchmark (`npx tsx bench/forensic.bench.ts`): one request at a time over
 * real HTTP, with access control, against the full sample lake the API benchmark prepares
 * (`API_BENCH_DATA_DIR`, default the same temp folder). Each report reads a company's
 * multi-year filings and prices from Parquet; the figures are per request, not throughput.
 */
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createApp } from '../api/app.ts';
import { unavailableRefresher } from '../api/refresher.ts';
import { createMetrics } from '../api/metrics.ts';
import { openApiReads } from '../reads/api-reads.ts';
import { ForensicReads } from '../warehouse/forensic-reads.ts';
import { listen } from '../test/support/http.ts';
import { openBenchAccess } from './bench-access.ts';
import { timeSequentially, type SequentialLatency } from './sequential-latency.ts';

export interface ForensicBenchFigures {
  listings: number;
  endpoints: SequentialLatency[];
  rssMiB: number;
}

function timeRequests(name: string, url: string, paths: string[], headers: Record<string, string>): Promise<SequentialLatency> {
  return timeSequentially(
    name,
    paths.map((p) => () => fetch(`${url}${p}`, { headers })),
  );
}

/** Runs the forensic benchmark over an existing lake (prepared by the API benchmark). */
export async function runForensicBench(options: { dataDir?: string; tickers?: number } = {}): Promise<ForensicBenchFigures> {
  const dataDir = options.dataDir ?? process.env.API_BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'faithscreen-api-bench');
  const reads = await openApiReads({ dataDir, followIntervalMs: 0 });
  const lake = new ForensicReads(dataDir);
  const { access, key, close: closeAccess } = await openBenchAccess();
  const app = createApp({
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(),
    readiness: {},
    screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
    forensic: { lake },
    accessControl: access.middleware,
  });
  const { url, close: closeServer } = await listen(app);
  try {
    const stocks = reads.listings('us').filter((l) => l.kind === 'stock');
    const step = Math.max(1, Math.floor(stocks.length / (options.tickers ?? 40)));
    const sample = stocks
      .filter((_, i) => i % step === 0)
      .slice(0, options.tickers ?? 40)
      .map((l) => l.ticker);
    const headers = { 'X-API-Key': key };
    const endpoints = [
      await timeRequests(
        'report',
        url,
        sample.map((t) => `/api/forensic/${t}?market=us`),
        headers,
      ),
      await timeRequests(
        'health-score',
        url,
        sample.map((t) => `/api/forensic/${t}/health-score?market=us`),
        headers,
      ),
      await timeRequests(
        'peers n=5',
        url,
        sample.map((t) => `/api/forensic/${t}/peers?market=us&n=5`),
        headers,
      ),
    ];
    return { listings: reads.stats().listings, endpoints, rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20) };
  } finally {
    await closeServer();
    await lake.close();
    await reads.close();
    await closeAccess();
  }
}

export function formatForensicBench(f: ForensicBenchFigures): string[] {
  return [
    `[forensic] ${f.listings} listings; one request at a time over HTTP with access control; process RSS ${f.rssMiB} MiB`,
    ...f.endpoints.map(
      (e) => `[forensic] ${e.name}: p50 ${e.p50Ms} ms, p95 ${e.p95Ms} ms, max ${e.maxMs} ms over ${e.requests} tickers, errors ${e.errors}`,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { describeMachine } = await import('./machine.ts');
  console.log(describeMachine());
  for (const line of formatForensicBench(await runForensicBench())) console.log(line);
}
