import type { DuckDBConnection } from '@duckdb/node-api';
import type { SourceOptions } from '../sources/create-source.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { ingestChunk, planIngest } from '../warehouse/ingest.ts';
import { listingCounts, publishedSnapshotKeys, sliceListings } from '../warehouse/pipeline-reads.ts';
import { loadScreeningInputs, loadScreeningInputsForDates } from '../warehouse/screening-inputs.ts';
import type { LoadedInput, PipelineData } from './pipeline-data.ts';
import type { TickerChunk } from './pipeline-types.ts';

/** Which source the pipelines ingest from (the embedded default is the synthetic sample). */
export type PipelineSource = Omit<SourceOptions, 'asOf'>;

const query = <T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> => withDuckDB(':memory:', {}, work);

/** The pipeline's view of the lake and the configured source. */
export function createLakePipelineData(dataDir: string, source: PipelineSource): PipelineData {
  return {
    async ingestPlan(request) {
      return (await planIngest({ ...source, dataDir, asOf: request.date, markets: request.markets })).map((chunk) => chunk.id);
    },

    async ingestChunk(request, chunkId) {
      const result = await ingestChunk({ ...source, dataDir, asOf: request.date, markets: request.markets }, chunkId);
      return Object.values(result.rows).reduce((sum, n) => sum + n, 0);
    },

    listingCounts: (date, markets) => query((c) => listingCounts(c, dataDir, date, markets)),

    async loadInputs(chunk: TickerChunk, dates) {
      return query(async (c) => {
        const listings = await sliceListings(c, dataDir, chunk, dates.at(-1)!);
        const tickers = listings.map((l) => l.ticker);
        const listedOn = new Map(listings.map((l) => [l.ticker, l.listedOn]));
        const all = await loadScreeningInputsForDates(c, dataDir, { market: chunk.market, tickers, kind: 'stock', dates });
        // No snapshot for a date before the company was listed: there was nothing to screen.
        const inputs = all.filter((i) => (listedOn.get(i.listing.ticker) ?? '') <= i.screeningDate);
        const found = new Set(all.map((i) => i.listing.ticker));
        const missing: LoadedInput[] = tickers
          .filter((t) => !found.has(t))
          .map((ticker) => ({ ok: false, market: chunk.market, ticker, date: dates.at(-1)!, reason: 'no listing row could be loaded' }));
        return [...inputs.map((input): LoadedInput => ({ ok: true, input })), ...missing];
      });
    },

    async publishedKeys(chunk, dates, snapshotSource) {
      return query(async (c) => {
        const tickers = (await sliceListings(c, dataDir, chunk, dates.at(-1)!)).map((l) => l.ticker);
        return publishedSnapshotKeys(c, dataDir, chunk.market, tickers, dates, snapshotSource);
      });
    },

    async refreshTicker() {
      // The sources in this build re-derive a ticker from files already ingested (sample: a
      // deterministic generator; feed: the delivered files), so there is nothing newer to fetch.
    },

    async loadTickerInput(market, ticker, date) {
      const inputs = await query((c) => loadScreeningInputs(c, dataDir, { market, tickers: [ticker], date }));
      return inputs[0] ?? null;
    },
  };
}
