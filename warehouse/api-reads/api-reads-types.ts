import type { SnapshotFramework, SnapshotRatio, SnapshotStatus } from '../snapshot-schema.ts';

/**
 * What the API's reads return: plain objects, decoded from the in-memory indexes built over
 * the lake's Parquet files. Dates are `YYYY-MM-DD`; `screenedAt` is UTC without zone.
 */

/** One snapshot's identity, statuses and key ratios (no reasons: those live in `result_json`). */
export interface VerdictRow {
  market: string;
  ticker: string;
  snapshotDate: string;
  /** ISO 8601 timestamp in UTC without zone, millisecond precision. */
  screenedAt: string;
  source: string;
  era: 'legacy' | 'current';
  statuses: Record<SnapshotFramework, SnapshotStatus>;
  /** Ratio columns of the snapshot (0..1, may exceed 1) and market caps (listing currency). */
  ratios: Record<SnapshotRatio, number | null>;
  synthetic: boolean;
  dataSource: string;
}

/** One listing of the universe. */
export interface Listing {
  market: string;
  ticker: string;
  name: string;
  /** ISO 10383 MIC of the listing exchange. */
  exchange: string;
  kind: string;
  currency: string;
}

/** A fund's holdings on its latest report date, heaviest first; weights in 0..1 of the fund. */
export interface FundHoldings {
  fundMarket: string;
  fundTicker: string;
  asOf: string;
  /** Number of holdings in the report (before any top-N cut). */
  totalHoldings: number;
  holdings: Array<{ market: string; ticker: string; weight: number }>;
}

/** Outcome of looking a verdict up at or before a date. */
export type AsOfLookup = { found: true; row: VerdictRow } | { found: false; firstSnapshotDate: string | null };
