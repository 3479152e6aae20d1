/**
 * Purification benchmark (`npx tsx bench/purification.bench.ts`): `POST /api/purification`
 * latency over real HTTP beside the baseline of a point-in-time read (`GET …?as_of=`, the other
 * `screen/history` request) measured in the same run, one request at a time.
 *
 * Data: the **synthetic** sample universe (US only, PURIFICATION_BENCH_SCALE, default 0.01) with
 * month-end snapshots from 2012-01-31 to 2025-12-31 screened by the engine and published one
 * file per date, as a backfill publishes them before compaction (168 files). Each purification
 * walks a lot through those snapshots: one year (12 periods), ten years (120 periods), and 50
 * one-year lots in one request. Then the lake is compacted as the daily maintenance does (one
 * file per year) and the same requests run again.
 */
import pino from 'pino';
import { compactResult, snapshotRowFrom } from '../activities/snapshot-rows.ts';
import { createApp } from '../api/app.ts';
import { createMetrics } from '../api/metrics.ts';
import { unavailableRefresher } from '../api/refresher.ts';
import { screenCompany } from '../engine/index.ts';
import { ingestSource } from '../sources/ingest.ts';
import { listen } from '../test/support/http.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';
import { openApiReads } from '../reads/api-reads.ts';
import { compactSnapshots } from '../warehouse/compaction.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { PurificationReads } from '../warehouse/purification-reads.ts';
import { loadScreeningInputsForDates } from '../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import { cadenceDates } from '../workflows/cadence.ts';
import { describeMachine } from './machine.ts';
import { timeSequentially, type SequentialLatency } from './sequential-latency.ts';

export interface PurificationBenchFigures {
  stocks: number;
  snapshots: number;
  files: number;
  prepareSeconds: number;
  latencies: SequentialLatency[];
  rssMiB: number;
}

export async function runPurificationBench(options: { scale?: number; tickers?: number } = {}): Promise<PurificationBenchFigures> {
  const scale = options.scale ?? Number(process.env.PURIFICATION_BENCH_SCALE ?? 0.01);
  const temp = await makeTempDir('faithscreen-purification-bench-');
  try {
    const prepared = performance.now();
    const today = new Date().toISOString().slice(0, 10);
    await ingestSource({ source: 'sample', scale, dataDir: temp.dir, asOf: today, markets: ['us'], concurrency: 2 });
    const dates = cadenceDates('2012-01-31', '2025-12-31', 'month-end');
    let snapshots = 0;
    let files = 0;
    const stocks = new Set<string>();
    for (let i = 0; i < dates.length; i += 12) {
      const chunk = dates.slice(i, i + 12);
      const inputs = await withDuckDB(':memory:', {}, (c) =>
        loadScreeningInputsForDates(c, temp.dir, { market: 'us', dates: chunk, kind: 'stock' }),
      );
      for (const date of chunk) {
        const rows = inputs
          .filter((input) => input.screeningDate === date)
          .map((input) => {
            // Only stocks screened from the first month on: every lot below then has snapshots.
            if (date === dates[0]) stocks.add(input.listing.ticker);
            return snapshotRowFrom(input, compactResult(screenCompany(input)), {
              source: 'backfill',
              runId: `bench-${date}`,
              screenedAt: `${date}T02:00:00.000`,
            });
          });
        const written = await writeSnapshots(temp.dir, rows, { fileStem: `bench-${date}` });
        snapshots += written.rows;
        files += written.files.length;
      }
    }
    const prepareSeconds = (performance.now() - prepared) / 1000;

    const reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
    const lake = new PurificationReads(temp.dir);
    const app = createApp({
      logger: pino({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: {},
      screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
      purification: { lake },
    });
    const server = await listen(app);
    try {
      const tickers = [...stocks].sort().slice(0, options.tickers ?? 40);
      const purify = (ticker: string, lots: unknown[]) => () =>
        fetch(`${server.url}/api/purification`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ market: 'us', ticker, framework: 'shariah_aaoifi', lots }),
        });
      const yearLot = (k: number) => ({ shares: 100, bought_on: `${2013 + (k % 12)}-02-15`, sold_on: `${2014 + (k % 12)}-02-15` });
      // Warm up once (the pools open on first use), then measure.
      await (await purify(tickers[0]!, [yearLot(0)])()).arrayBuffer();
      const measure = async (layout: string): Promise<SequentialLatency[]> => [
        await timeSequentially(
          `${layout}: baseline GET as_of (screen/history)`,
          tickers.map((t, k) => () => fetch(`${server.url}/api/screen/us/${t}?as_of=${2013 + (k % 12)}-06-15`)),
        ),
        await timeSequentially(
          `${layout}: 1 lot of 1 year (12 periods)`,
          tickers.map((t, k) => purify(t, [yearLot(k)])),
        ),
        await timeSequentially(
          `${layout}: 1 lot of 10 years (120 periods)`,
          tickers.map((t) => purify(t, [{ shares: 100, bought_on: '2014-01-15', sold_on: '2024-01-15' }])),
        ),
        await timeSequentially(
          `${layout}: 50 lots of 1 year`,
          tickers.map((t) =>
            purify(
              t,
              Array.from({ length: 50 }, (_, k) => yearLot(k)),
            ),
          ),
        ),
      ];
      const perDate = await measure('one file per date');
      // What the daily lake maintenance leaves: one file per (market, year) partition.
      const compacted = await compactSnapshots(temp.dir, { minAgeMs: 0, retireAfterMs: 0 });
      await reads.sync();
      const perYear = await measure(`compacted (${compacted.filesAfter} files)`);
      const latencies = [...perDate, ...perYear];
      return { stocks: stocks.size, snapshots, files, prepareSeconds, latencies, rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20) };
    } finally {
      await server.close();
      await reads.close();
      await lake.close();
    }
  } finally {
    await temp.cleanup();
  }
}

export function formatPurificationBench(f: PurificationBenchFigures): string[] {
  return [
    `[purification] synthetic sample: ${f.stocks} US stocks listed since 2012, ${f.snapshots} month-end ` +
      `snapshots 2012–2025 in ${f.files} files (prepared in ${f.prepareSeconds.toFixed(1)} s)`,
    ...f.latencies.map(
      (l) =>
        `[purification] ${l.name}: ${l.requests} requests, p50 ${l.p50Ms} ms, p95 ${l.p95Ms} ms, max ${l.maxMs} ms${l.errors ? `, ${l.errors} errors` : ''}`,
    ),
    `[purification] process RSS after: ${f.rssMiB} MiB`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const line of formatPurificationBench(await runPurificationBench())) console.log(line);
}
