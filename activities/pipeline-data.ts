import type { ScreeningInput } from '../engine/index.ts';
import type { TickerChunk } from './pipeline-types.ts';

/** One input the loader produced, or why it could not (a ticker with no usable listing row). */
export type LoadedInput = { ok: true; input: ScreeningInput } | { ok: false; market: string; ticker: string; date: string; reason: string };

/**
 * What the pipeline activities need from the warehouse and the sources. The worker passes the
 * lake-backed implementation (`createLakePipelineData`); nothing here knows about Temporal.
 */
export interface PipelineData {
  /** Listings per market on `date`, in market order. */
  listingCounts(date: string, markets: string[] | null): Promise<Array<{ market: string; count: number }>>;
  /** Screening inputs of a chunk's listings on each date (point in time: nothing filed after the date). */
  loadInputs(chunk: TickerChunk, dates: readonly string[]): Promise<LoadedInput[]>;
  /**
   * Keys `ticker|date` of the chunk's listings that already have a snapshot on one of `dates`,
   * whatever screen published it (docs/pipelines.md, *Chunks, retries and exactly-once snapshots*).
   */
  publishedKeys(chunk: TickerChunk, dates: readonly string[]): Promise<Set<string>>;
  /** Brings one ticker's source data up to date where the source can (none in this build needs to). */
  refreshTicker(market: string, ticker: string, date: string): Promise<void>;
  /** The screening input of one listing on a date, or null when the listing is unknown. */
  loadTickerInput(market: string, ticker: string, date: string): Promise<ScreeningInput | null>;
}
