/**
 * Portfolio benchmark (`npx tsx bench/portfolio.bench.ts`): `POST /api/portfolio` with 200
 * holdings, 197 stocks and 3 funds looked through, over real HTTP, one request at a time, beside
 * the baseline of the same number of stocks screened by `POST /api/screen/batch` (two batches,
 * 100 + 97, the batch limit) measured in the same run.
 *
 * Data: the **synthetic** sample universe, US only (PORTFOLIO_BENCH_SCALE, default 0.05: about
 * 1,500 stocks and 20 funds), every stock screened today by the engine and published as the
 * nightly run does. Caches cold: every request names stocks and funds no earlier request of the
 * run named, so no parsed result or rendered report of them is in the API's memory (the
 * operating system's file cache is not emptied). Rounds alternate portfolio and baseline.
 */
import pino from 'pino';
import { snapshotRowFrom } from '../activities/snapshot-rows.ts';
import { createApp } from '../api/app.ts';
import { createMetrics } from '../api/metrics.ts';
import { unavailableRefresher } from '../api/refresher.ts';
import { screenCompany } from '../engine/index.ts';
import { ingestSource } from '../sources/ingest.ts';
import { listen } from '../test/support/http.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';
import { openApiReads } from '../reads/api-reads.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { PurificationReads } from '../warehouse/purification-reads.ts';
import { loadScreeningInputs } from '../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import { describeMachine } from './machine.ts';

export interface PortfolioBenchFigures {
  stocks: number;
  funds: number;
  fundHoldings: number[];
  prepareSeconds: number;
  /** Milliseconds of each cold portfolio request, and of each baseline (both batches of one round). */
  portfolioMs: number[];
  baselineMs: number[];
  /** The first round's portfolio sent again straight after it: what it reads is then in memory. */
  warmMs: number;
  rssMiB: number;
}

const STOCKS_PER_PORTFOLIO = 197;
const FUNDS_PER_PORTFOLIO = 3;

export async function runPortfolioBench(options: { scale?: number; rounds?: number } = {}): Promise<PortfolioBenchFigures> {
  const scale = options.scale ?? Number(process.env.PORTFOLIO_BENCH_SCALE ?? 0.05);
  const temp = await makeTempDir('faithscreen-portfolio-bench-');
  try {
    const prepared = performance.now();
    const today = new Date().toISOString().slice(0, 10);
    await ingestSource({ source: 'sample', scale, dataDir: temp.dir, asOf: today, markets: ['us'], concurrency: 2 });
    const inputs = await withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, temp.dir, { market: 'us', date: today, kind: 'stock' }));
    const rows = inputs.map((input) =>
      snapshotRowFrom(input, screenCompany(input), { source: 'nightly', runId: 'bench-nightly', screenedAt: `${today}T02:00:00.000` }),
    );
    await writeSnapshots(temp.dir, rows, { fileStem: 'bench-nightly' });
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
      const stocks = inputs.map((i) => i.listing.ticker).sort();
      const funds: string[] = [];
      const fundHoldings: number[] = [];
      for (const listing of reads.listings('us').filter((l) => l.kind === 'fund')) {
        const report = await reads.fundHoldings('us', listing.ticker, 1_000);
        if (report) {
          funds.push(listing.ticker);
          fundHoldings.push(report.holdings.length);
        }
      }
      const rounds = Math.min(
        options.rounds ?? 3,
        Math.floor(stocks.length / (2 * STOCKS_PER_PORTFOLIO)),
        Math.floor(funds.length / FUNDS_PER_PORTFOLIO),
      );
      if (rounds < 1) throw new Error(`the sample at scale ${scale} has ${stocks.length} stocks and ${funds.length} funds: too few`);
      const send = async (path: string, body: unknown): Promise<number> => {
        const started = performance.now();
        const response = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
        return performance.now() - started;
      };
      // Warm the pools and the render threads once, on a stock no round uses.
      await send('/api/screen/batch', { tickers: [{ market: 'us', ticker: stocks.at(-1) }] });
      const portfolioMs: number[] = [];
      const baselineMs: number[] = [];
      let warmMs = 0;
      for (let round = 0; round < rounds; round += 1) {
        const mine = stocks.slice(2 * round * STOCKS_PER_PORTFOLIO, (2 * round + 1) * STOCKS_PER_PORTFOLIO);
        const baseline = stocks.slice((2 * round + 1) * STOCKS_PER_PORTFOLIO, (2 * round + 2) * STOCKS_PER_PORTFOLIO);
        const holdings = [
          ...mine.map((ticker, i) => ({ market: 'us', ticker, value: 1_000 + i })),
          ...funds
            .slice(round * FUNDS_PER_PORTFOLIO, (round + 1) * FUNDS_PER_PORTFOLIO)
            .map((ticker) => ({ market: 'us', ticker, value: 20_000 })),
        ];
        portfolioMs.push(await send('/api/portfolio', { holdings }));
        // The same portfolio at once again: its results are now parsed in memory (later rounds would evict them).
        if (round === 0) warmMs = await send('/api/portfolio', { holdings });
        const items = baseline.map((ticker) => ({ market: 'us', ticker }));
        baselineMs.push(
          (await send('/api/screen/batch', { tickers: items.slice(0, 100) })) +
            (await send('/api/screen/batch', { tickers: items.slice(100) })),
        );
      }
      return {
        stocks: stocks.length,
        funds: funds.length,
        fundHoldings,
        prepareSeconds,
        portfolioMs,
        baselineMs,
        warmMs,
        rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
      };
    } finally {
      await server.close();
      await reads.close();
      await lake.close();
    }
  } finally {
    await temp.cleanup();
  }
}

const ms = (values: readonly number[]) => values.map((v) => `${Math.round(v)} ms`).join(', ');

export function formatPortfolioBench(f: PortfolioBenchFigures): string[] {
  const ratio = f.portfolioMs.map((p, i) => (p / f.baselineMs[i]!).toFixed(2)).join(', ');
  return [
    `[portfolio] synthetic sample: ${f.stocks} US stocks screened today, ${f.funds} funds with reports of ` +
      `${Math.min(...f.fundHoldings)}–${Math.max(...f.fundHoldings)} holdings (prepared in ${f.prepareSeconds.toFixed(1)} s)`,
    `[portfolio] 200 holdings (197 stocks + 3 funds), caches cold, each round new tickers: ${ms(f.portfolioMs)} (target < 1000 ms)`,
    `[portfolio] baseline, the same number of stocks by POST /api/screen/batch (100 + 97), cold: ${ms(f.baselineMs)}`,
    `[portfolio] portfolio ÷ baseline per round: ${ratio}; the first round's portfolio again at once (warm): ${Math.round(f.warmMs)} ms`,
    `[portfolio] process RSS after: ${f.rssMiB} MiB`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const line of formatPortfolioBench(await runPortfolioBench())) console.log(line);
}
