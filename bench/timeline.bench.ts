/**
 * Status timeline benchmark (`npx tsx bench/timeline.bench.ts`): how long
 * `GET /api/screen/{market}/{ticker}/timeline` takes over a long history, beside an as_of read
 * with reasons (one stored result from the lake) measured in the same run as the baseline.
 *
 * Data: the **synthetic** sample universe (US stocks at TIMELINE_BENCH_SCALE, default 0.002: about
 * 60 stocks) screened by the engine at every quarter end from 2009-01-01 to today (73 dates),
 * written as a backfill leaves them — one Parquet file per date, compact results — plus today's
 * nightly screen with full results. The API runs in this process over real HTTP on 127.0.0.1,
 * without access control; every ticker is asked once (its history cold), then asked again.
 */
import pino from 'pino';
import { createApp } from '../api/app.ts';
import { createMetrics } from '../api/metrics.ts';
import { unavailableRefresher } from '../api/refresher.ts';
import { compactResult, snapshotRowFrom } from '../activities/snapshot-rows.ts';
import { screenCompany } from '../engine/index.ts';
import { ingestSource } from '../sources/ingest.ts';
import { openApiReads } from '../reads/api-reads.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { loadScreeningInputs } from '../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import { cadenceDates } from '../workflows/cadence.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';
import { describeMachine } from './machine.ts';

export interface LatencyFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface TimelineBenchFigures {
  tickers: number;
  dates: number;
  snapshots: number;
  buildSeconds: number;
  /** Mean status changes per timeline, over all ten frameworks. */
  meanChanges: number;
  timelineCold: LatencyFigures;
  timelineWarm: LatencyFigures;
  /** Baseline: as_of with reasons=true (one stored result read from the lake) for the same tickers. */
  asOfWithReasons: LatencyFigures;
}

function latency(samples: number[]): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { requests: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1)! };
}

async function timed(url: string): Promise<{ ms: number; body: Record<string, unknown> }> {
  const started = performance.now();
  const response = await fetch(url);
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, body };
}

export async function runTimelineBench(scale = Number(process.env.TIMELINE_BENCH_SCALE ?? 0.002)): Promise<TimelineBenchFigures> {
  const temp = await makeTempDir();
  try {
    const today = new Date().toISOString().slice(0, 10);
    const built = performance.now();
    await ingestSource({ source: 'sample', scale, dataDir: temp.dir, asOf: today, markets: ['us'], concurrency: 2 });
    const dates = [...cadenceDates('2009-01-01', today, 'quarter-end').filter((date) => date < today), today];
    let snapshots = 0;
    for (const date of dates) {
      const source = date === today ? 'nightly' : 'backfill';
      const inputs = await withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, temp.dir, { market: 'us', date, kind: 'stock' }));
      const rows = inputs.map((input) => {
        const result = screenCompany(input);
        return snapshotRowFrom(input, source === 'backfill' ? compactResult(result) : result, {
          source,
          runId: `${source}-${date}`,
          screenedAt: `${date}T02:00:00.000`,
        });
      });
      snapshots += (await writeSnapshots(temp.dir, rows, { fileStem: `${source}-${date}` })).rows;
    }
    const buildSeconds = (performance.now() - built) / 1000;

    const reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
    const app = createApp({
      logger: pino({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: {},
      screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const base = `http://127.0.0.1:${port}/api/screen/us`;
    try {
      const tickers = reads
        .listings('us')
        .filter((listing) => listing.kind === 'stock' && reads.current('us', listing.ticker))
        .map((listing) => listing.ticker);
      const cold: number[] = [];
      const middleOf = new Map<string, string>();
      let changes = 0;
      for (const ticker of tickers) {
        const { ms, body } = await timed(`${base}/${ticker}/timeline`);
        cold.push(ms);
        for (const framework of Object.values(body.frameworks as Record<string, { flips: number }>)) changes += framework.flips;
        // The as_of baseline reads a snapshot from the middle of the ticker's own history.
        const own = dates.filter((date) => date >= String(body.first_snapshot_date));
        middleOf.set(ticker, own[Math.floor(own.length / 2)]!);
      }
      const asOf: number[] = [];
      for (const ticker of tickers) asOf.push((await timed(`${base}/${ticker}?as_of=${middleOf.get(ticker)}&reasons=true`)).ms);
      const warm: number[] = [];
      for (const ticker of tickers) warm.push((await timed(`${base}/${ticker}/timeline`)).ms);
      return {
        tickers: tickers.length,
        dates: dates.length,
        snapshots,
        buildSeconds,
        meanChanges: changes / Math.max(1, tickers.length),
        timelineCold: latency(cold),
        timelineWarm: latency(warm),
        asOfWithReasons: latency(asOf),
      };
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await reads.close();
    }
  } finally {
    await temp.cleanup();
  }
}

export function formatTimelineBench(f: TimelineBenchFigures): string[] {
  const row = (name: string, l: LatencyFigures) =>
    `[timeline]   ${name}: ${l.requests} requests, p50 ${l.p50Ms.toFixed(1)} ms, p99 ${l.p99Ms.toFixed(1)} ms, max ${l.maxMs.toFixed(1)} ms`;
  return [
    `[timeline] ${f.tickers} synthetic US stocks × ${f.dates} dates (quarter ends from 2009, one file ` +
      `each) = ${f.snapshots} snapshots, built in ${f.buildSeconds.toFixed(1)} s; ${f.meanChanges.toFixed(1)} ` +
      `status changes per timeline on average`,
    row('timeline, first ask (cold)', f.timelineCold),
    row('timeline, asked again', f.timelineWarm),
    row('baseline: as_of with reasons=true', f.asOfWithReasons),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const line of formatTimelineBench(await runTimelineBench())) console.log(line);
}
