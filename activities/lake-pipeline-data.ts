import type { DuckDBConnection } from '@duckdb/node-api';
import type { SourceOptions } from '../sources/create-source.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { countListings, listPublishedSnapshotKeys, sliceStockTickers } from '../warehouse/lake-queries.ts';
import { loadScreeningInputs, loadScreeningInputsForDates } from '../warehouse/screening-inputs.ts';
import { publishedKeysIn, snapshotFileIndexFor } from '../warehouse/snapshot-files.ts';
import type { LoadedInput, PipelineData } from './pipeline-data.ts';
import type { TickerChunk } from './pipeline-types.ts';

/** Which source the pipelines ingest from (the embedded default is the synthetic sample). */
export type PipelineSource = Omit<SourceOptions, 'asOf'>;

export interface LakePipelineDataOptions {
  /** DuckDB threads per query (default: all cores); a chunk thread uses one. */
  threads?: number;
  /**
   * Find a backfill chunk's published snapshots through the thread's snapshot file index
   * (warehouse/snapshot-files.ts; default true). False reads every snapshot file of the market,
   * as before the index: the benchmark's baseline.
   */
  fileIndex?: boolean;
}

/** The pipeline's view of the lake and the configured source. */
export function createLakePipelineData(dataDir: string, options: LakePipelineDataOptions = {}): PipelineData {
  const duckdb = options.threads === undefined ? {} : { threads: options.threads };
  const query = <T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> => withDuckDB(':memory:', duckdb, work);
  return {
    listingCounts: (date, markets) => query((c) => countListings(c, dataDir, { date, markets, kind: 'stock' })),

    async loadInputs(chunk: TickerChunk, dates) {
      return query(async (c) => {
        const tickers = await sliceStockTickers(c, dataDir, chunk, dates.at(-1)!);
        // The loader skips dates before a ticker was listed: there was nothing to screen then.
        const inputs = await loadScreeningInputsForDates(c, dataDir, { market: chunk.market, tickers, kind: 'stock', dates });
        const found = new Set(inputs.map((i) => i.listing.ticker));
        const missing: LoadedInput[] = tickers
          .filter((t) => !found.has(t))
          .map((ticker) => ({ ok: false, market: chunk.market, ticker, date: dates.at(-1)!, reason: 'no listing row could be loaded' }));
        return [...inputs.map((input): LoadedInput => ({ ok: true, input })), ...missing];
      });
    },

    async publishedKeys(chunk, dates) {
      return query(async (c) => {
        const tickers = await sliceStockTickers(c, dataDir, chunk, dates.at(-1)!);
        const keys = { market: chunk.market, tickers, dates };
        if (options.fileIndex === false || tickers.length === 0) return listPublishedSnapshotKeys(c, dataDir, keys);
        const years = [...new Set(dates.map((d) => Number(d.slice(0, 4))))];
        const files = await snapshotFileIndexFor(dataDir).candidates(c, chunk.market, years, tickers[0]!, tickers.at(-1)!);
        // A file compacted away between the index and the read: read every file of the market instead.
        return publishedKeysIn(c, files, keys).catch(() => listPublishedSnapshotKeys(c, dataDir, keys));
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
