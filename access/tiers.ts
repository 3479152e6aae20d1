import type { EndpointTag } from '../common/grants.ts';

export const TIERS = ['free', 'pro', 'team', 'enterprise', 'partner'] as const;
export type Tier = (typeof TIERS)[number];

/**
 * Units per rolling 24-hour window by tier (spec "Limits"). Free accounts have no API access;
 * partner limits are set per contract on each key (`--daily-limit`, required for partner keys).
 */
export const TIER_DAILY_LIMITS: Record<Exclude<Tier, 'free' | 'partner'>, number> = {
  pro: 1_000,
  team: 10_000,
  enterprise: 100_000,
};

/** The endpoint tags a key may be restricted to (spec "Partner key scopes", plus ours). */
export const GRANTABLE_ENDPOINTS = [
  'screen',
  'screen/history',
  'screen/batch',
  'screen/etf',
  'screen/compare',
  'attest',
  'forensic',
  'export',
  'webhooks',
] as const;
export type GrantableEndpoint = (typeof GRANTABLE_ENDPOINTS)[number];

/**
 * Default units per item by endpoint tag. A route declares how many items a request covers
 * (a batch's tickers, an ETF's holdings in tens); a partner key's weights replace these.
 */
export const DEFAULT_WEIGHTS: Record<EndpointTag, number> = {
  screen: 1,
  'screen/history': 2,
  'screen/batch': 1,
  'screen/etf': 1,
  'screen/compare': 1,
  attest: 5,
  forensic: 1,
  export: 10,
  webhooks: 1,
  public: 0,
};

export const DAY_MS = 24 * 60 * 60 * 1000;
export const MONTH_MS = 30 * DAY_MS;
