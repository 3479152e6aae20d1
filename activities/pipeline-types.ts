/**
 * What pipeline workflows and activities exchange. Only references and counts cross Temporal:
 * bulk data stays in the lake, named by partition and file.
 */

import type { SnapshotSource } from '../warehouse/snapshot-schema.ts';

/** A slice of one market's listings, in ticker order. */
export interface TickerChunk {
  index: number;
  market: string;
  offset: number;
  limit: number;
}

export interface ScreenPlan {
  date: string;
  totalTickers: number;
  chunks: TickerChunk[];
}

export interface FailedTicker {
  market: string;
  ticker: string;
  reason: string;
}

/** Failed tickers an outcome carries at most; the complete list is in its `failedFile`. */
export const FAILED_PER_OUTCOME = 200;

export interface ChunkOutcome {
  index: number;
  screened: number;
  /** Snapshots published by this chunk (backfill: over all its dates). */
  published: number;
  /** Snapshots already in the lake and left as they were (a resumed backfill). */
  skipped: number;
  /** The first `FAILED_PER_OUTCOME` failed tickers (payloads stay small however many fail). */
  failed: FailedTicker[];
  /** How many tickers failed (absent in outcomes recorded before it existed: then `failed.length`). */
  failedCount?: number;
  /** NDJSON file with every failed ticker, relative to DATA_DIR; null when none failed. */
  failedFile?: string | null;
  /** Lake files published, relative to DATA_DIR. */
  files: string[];
}

export interface ScreenChunkRequest {
  runId: string;
  source: SnapshotSource;
  chunk: TickerChunk;
  /** Screening dates (`YYYY-MM-DD`): one for the nightly run, many for a backfill. */
  dates: string[];
}

export interface PlanRequest {
  date: string;
  /** Market keys, or null for every market. */
  markets: string[] | null;
  chunkSize: number;
}

export interface TickerRequest {
  market: string;
  ticker: string;
  date: string;
}
