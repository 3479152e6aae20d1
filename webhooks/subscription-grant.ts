import { UNSCOPED_KEY_FRAMEWORKS } from '../common/grants.ts';
import type { CreatorKeyGrant, SubscriptionRecord } from './webhook-store.ts';

/** What a subscription may receive now: itself narrowed to its key's grant, or why it may receive nothing. */
export type LiveScope = { subscription: SubscriptionRecord; hold: null } | { subscription: null; hold: string };

const held = (hold: string): LiveScope => ({ subscription: null, hold });

/**
 * A subscription stands on the grant of the key that created it, read again at every delivery
 * run and attempt: a revoked key's subscriptions stop, and a narrowed grant stops what it no
 * longer covers (frameworks and markets outside it are dropped; nothing left, nothing sent).
 */
export function liveScopeOf(subscription: SubscriptionRecord, key: CreatorKeyGrant | undefined): LiveScope {
  if (!key) return held(`the key ${subscription.createdByKeyId} that created the subscription no longer exists`);
  if (key.revokedAt !== null)
    return held(`the key ${key.keyId} that created the subscription was revoked on ${key.revokedAt.slice(0, 10)}`);
  if (key.allowedEndpoints !== null && !key.allowedEndpoints.includes('webhooks'))
    return held(`the key ${key.keyId} that created the subscription no longer has the webhooks grant`);
  const granted: readonly string[] = key.allowedFrameworks ?? UNSCOPED_KEY_FRAMEWORKS;
  const frameworks = subscription.frameworks.filter((id) => granted.includes(id));
  if (frameworks.length === 0) return held(`none of the subscription's frameworks is within the grant of key ${key.keyId} any more`);
  const markets = key.allowedMarkets;
  if (markets === null) return { subscription: { ...subscription, frameworks }, hold: null };
  if (subscription.market !== null && !markets.includes(subscription.market))
    return held(`market ${subscription.market} is no longer within the grant of key ${key.keyId}`);
  const tickers = subscription.tickers?.filter((entry) => markets.includes(entry.split('/')[0]!)) ?? null;
  if (tickers !== null && tickers.length === 0)
    return held(`none of the subscription's markets is within the grant of key ${key.keyId} any more`);
  return { subscription: { ...subscription, frameworks, tickers }, hold: null };
}

/**
 * Why an event recorded earlier may not be sent under the subscription's scope now (its market
 * or one of its frameworks left the grant), or null when it may. The body is fixed when the
 * event is recorded (every attempt sends the same bytes), so an event is sent whole or not at all.
 */
export function eventOutsideScope(scope: SubscriptionRecord, event: { market: string; ticker: string; body: string }): string | null {
  const inMarket =
    scope.market !== null ? scope.market === event.market : (scope.tickers ?? []).includes(`${event.market}/${event.ticker}`);
  if (!inMarket) return `market ${event.market} is no longer within the grant of the subscription's key`;
  const changes = (JSON.parse(event.body) as { data?: { changes?: Array<{ framework: string }> } }).data?.changes ?? [];
  const outside = changes.map((change) => change.framework).filter((id) => !scope.frameworks.includes(id));
  return outside.length > 0 ? `framework ${outside.join(', ')} is no longer within the grant of the subscription's key` : null;
}
