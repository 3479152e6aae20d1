import type { SnapshotFramework, SnapshotRatio, SnapshotStatus } from '../warehouse/snapshot-schema.ts';

/**
 * What the API's reads return: plain objects, from the current verdicts in memory or the
 * serving store. Dates are `YYYY-MM-DD`; `screenedAt` is UTC without zone.
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

/** One listing of the universe, and a fund's latest holdings: as the serving store holds them. */
export type { FundHoldings, ServingListing as Listing } from '../serving/serving-types.ts';

/** Outcome of looking a verdict up at or before a date. */
export type AsOfLookup = { found: true; row: VerdictRow } | { found: false; firstSnapshotDate: string | null };
