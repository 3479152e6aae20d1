import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * The one interface every data source implements. A source splits its data into chunks that
 * can be staged independently (by market, ticker range or delivery), so ingestion is chunked
 * and a retried chunk rewrites the same deterministic lake files.
 *
 * Each table method creates the temp table `target.table` on `target.connection` holding the
 * chunk's rows with the lake table's columns (docs/warehouse.md) plus its partition column
 * (`market`, or `fund_market` for fund holdings). Amounts are in the listing's currency,
 * shares and weights in 0..1, dates `YYYY-MM-DD` (DATE columns).
 */

export type SourceName = 'sample' | 'edgar' | 'feed';

export const SOURCE_TABLES = ['listings', 'fundamentals', 'prices', 'exposures', 'fund_holdings', 'splits'] as const;
export type SourceTable = (typeof SOURCE_TABLES)[number];

export interface SourceChunk {
  /** Deterministic, file-name safe id: the lake file of this chunk is `<source>-<id>.parquet`. */
  id: string;
  /** Markets whose partitions this chunk writes. */
  markets: string[];
  /** Tickers (listings) the chunk covers, for progress reporting. */
  tickers: number;
}

export interface StageTarget {
  connection: DuckDBConnection;
  /** Name of the temp table to create. */
  table: string;
}

export interface SourceAdapter {
  readonly name: SourceName;
  /** True when the rows are generated, not any real company's data. */
  readonly synthetic: boolean;
  /**
   * The chunks to ingest, in a stable order; optionally only some markets. A source that
   * validates its input does it here, so a load with errors fails before anything is published.
   */
  chunks(connection: DuckDBConnection, markets?: readonly string[] | null): Promise<SourceChunk[]>;
  listings(chunk: SourceChunk, target: StageTarget): Promise<void>;
  fundamentals(chunk: SourceChunk, target: StageTarget): Promise<void>;
  prices(chunk: SourceChunk, target: StageTarget): Promise<void>;
  exposures(chunk: SourceChunk, target: StageTarget): Promise<void>;
  fundHoldings(chunk: SourceChunk, target: StageTarget): Promise<void>;
  /** Stock splits, so prices and share counts can be put on one split basis (docs/data/real-companies.md). */
  splits(chunk: SourceChunk, target: StageTarget): Promise<void>;
}

/** Stages one table of a chunk through the adapter's matching method. */
export function stageTable(adapter: SourceAdapter, table: SourceTable, chunk: SourceChunk, target: StageTarget): Promise<void> {
  switch (table) {
    case 'listings':
      return adapter.listings(chunk, target);
    case 'fundamentals':
      return adapter.fundamentals(chunk, target);
    case 'prices':
      return adapter.prices(chunk, target);
    case 'exposures':
      return adapter.exposures(chunk, target);
    case 'fund_holdings':
      return adapter.fundHoldings(chunk, target);
    case 'splits':
      return adapter.splits(chunk, target);
  }
}
