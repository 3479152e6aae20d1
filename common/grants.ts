import { FRAMEWORK_IDS, type FrameworkId } from '../engine/index.ts';

/**
 * What an API request is and what a key may see: the types access control and the API share.
 * They live below both so neither imports the other (docs/access.md).
 */

/**
 * The endpoint tags (docs/access.md) (`screen`, `screen/history`, `screen/batch`, `screen/etf`,
 * `screen/compare`, `attest`), plus ours: `forensic`, `export` (researcher exports), `webhooks`
 * (status-change subscriptions, docs/webhooks.md) and `public` (no key needed, never counted).
 */
export type EndpointTag =
  'screen' | 'screen/history' | 'screen/batch' | 'screen/etf' | 'screen/compare' | 'attest' | 'forensic' | 'export' | 'webhooks' | 'public';

export interface EndpointDeclaration {
  tag: EndpointTag;
  /** Quota units this request costs (docs/access.md: single 1, as_of 2, timeline 3, batch 1 per ticker, compare 1, purification 2 per lot, lists 0). */
  cost: number;
}

/**
 * The frameworks a key without a framework scope of its own sees: all but `service_consensus`,
 * the service's own opinion rather than a faith authority's, which needs an explicit grant
 * (docs/access.md).
 */
export const UNSCOPED_KEY_FRAMEWORKS: readonly FrameworkId[] = FRAMEWORK_IDS.filter((id) => id !== 'service_consensus');

/** What a key may see; null means unrestricted on that axis. Set by access control. */
export interface Grant {
  allowedFrameworks: string[] | null;
  allowedMarkets: string[] | null;
  allowedEndpoints?: string[] | null;
  /** Public id of the API key the request came with (never the secret). */
  keyId?: string;
  /** Owning account and its tier. */
  account?: string;
  tier?: string;
  /** The key's scopes exactly as provisioned (null = unrestricted), shown as `key_scope`. */
  keyScope?: { allowed_frameworks: string[] | null; allowed_markets: string[] | null; allowed_endpoints: string[] | null };
}

export interface ApiState {
  endpoint?: EndpointDeclaration;
  grant?: Grant;
  /** Items of a multi-item request (a batch) answered with an error: access control gives their units back. */
  itemsNotServed?: number;
  /** The request started costly work that goes on although it answers an error (a re-screen still running): its units are kept. */
  keepCharge?: boolean;
}
