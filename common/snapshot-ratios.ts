/**
 * Ratio columns of a snapshot (doubles, null when not computable): the lake's `snapshots` table
 * and the serving store both hold them under these names.
 */
export const SNAPSHOT_RATIOS = [
  'debt_to_market_cap',
  'cash_to_market_cap',
  'receivables_to_market_cap',
  'debt_to_assets',
  'cash_to_assets',
  'receivables_cash_to_assets',
  'non_permissible_income_share',
  'market_cap',
  'avg_market_cap_24m',
  'avg_market_cap_36m',
] as const;

export type SnapshotRatio = (typeof SNAPSHOT_RATIOS)[number];
