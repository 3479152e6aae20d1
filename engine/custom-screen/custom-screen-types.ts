/**
 * A custom screen: a base framework plus an account's own layer of rules (docs/custom-screens.md).
 * The layer only adds: extra excluded activities, excluded tickers, and stricter limits on the
 * base's own checks. Allowed tickers skip the layer's rules, never the base's.
 * Shares and limits are ratios in 0..1; dates are `YYYY-MM-DD`; tickers are `market/TICKER`.
 */
import { FRAMEWORK_IDS, type FrameworkId } from '../frameworks.ts';
import type { ActivityCode, Involvement } from '../inputs.ts';
import type { ComparisonOperator, FrameworkResult, Reason } from '../result-types.ts';

/** A framework a custom screen may build on: every methodology but the service's own consensus (a blend, not a rulebook). */
export type CustomScreenBase = Exclude<FrameworkId, 'service_consensus'>;

/** The frameworks a custom screen may build on, in the API's order (`FRAMEWORK_IDS`). */
export const CUSTOM_SCREEN_BASES: readonly CustomScreenBase[] = FRAMEWORK_IDS.filter(
  (id): id is CustomScreenBase => id !== 'service_consensus',
);

/** One extra excluded activity: excluded above `maxRevenueShare`, and at any share for the involvements named. */
export interface CustomActivityRule {
  activity: ActivityCode;
  /** Revenue share (0..1) the activity may reach; 0 excludes any revenue from it. */
  maxRevenueShare: number;
  /** Involvements excluded whatever the share (e.g. `producer`); empty = none. */
  excludedInvolvements: readonly Involvement[];
}

/** What one version of a custom screen says. */
export interface CustomScreenDefinition {
  base: CustomScreenBase;
  description: string;
  activities: readonly CustomActivityRule[];
  /** `market/TICKER` entries excluded whatever the figures say. */
  excludedTickers: readonly string[];
  /** `market/TICKER` entries the custom layer's rules do not apply to (the base's verdict stands). */
  allowedTickers: readonly string[];
  /** A stricter limit per metric of one of the base's own threshold checks (e.g. `debt_to_market_cap_spot`: 0.25). */
  thresholds: Readonly<Record<string, number>>;
}

/** The version of a custom screen a verdict was computed under. */
export interface CustomScreenVersion {
  slug: string;
  version: number;
  effectiveFrom: string;
  definition: CustomScreenDefinition;
}

/**
 * What a snapshot's stored result keeps of each verdict's reasons: `all` (a nightly or refresh
 * snapshot), or only those that `decided` it (a backfill snapshot: passing checks dropped).
 */
export type ReasonsKept = 'all' | 'deciding';

/** Which layer a reason comes from: the base framework's stored verdict, or the account's custom layer. */
export type ReasonOrigin = 'base' | 'custom';

export type CustomReason = Reason & { origin: ReasonOrigin };

/** A custom screen's verdict: the base's result with the layer's reasons added, naming the version. */
export interface CustomFrameworkResult extends Omit<FrameworkResult, 'id' | 'reasons' | 'components' | 'coverage' | 'traditions'> {
  id: `custom:${string}`;
  base: CustomScreenBase;
  /** The base framework's own verdict on the same snapshot. */
  base_status: FrameworkResult['status'];
  /** The version applied; null when none was in force on the screening date. */
  custom_screen: { slug: string; version: number | null; effective_from: string | null };
  reasons: CustomReason[];
}

/** A limit of one of the base's own threshold checks. */
export interface BaseThreshold {
  metric: string;
  code: string;
  threshold: number;
  operator: ComparisonOperator;
}
