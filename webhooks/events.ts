import { randomBytes } from 'node:crypto';
import type { RunVerdictChange } from '../warehouse/run-verdict-changes.ts';

/** The event types a subscription may ask for (docs/webhooks.md). */
export const WEBHOOK_EVENT_TYPES = ['status.changed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Ids are random so they reveal nothing about volume; they are what receivers deduplicate on. */
export const newSubscriptionId = (): string => `whs_${randomBytes(12).toString('hex')}`;
export const newEventId = (): string => `evt_${randomBytes(12).toString('hex')}`;
/** A subscription's signing secret: 32 random bytes, shown once at creation. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

export const SUBSCRIPTION_ID_PATTERN = /^whs_[0-9a-f]{24}$/;

/**
 * The JSON body of a `status.changed` event: the ticker's new snapshot, the one just before it
 * and, for the subscription's frameworks only, each status that changed. The body is fixed when
 * the event is recorded, so every attempt (and every duplicate) carries the same bytes and id.
 */
export function statusChangedBody(
  eventId: string,
  subscriptionId: string,
  createdAt: string,
  change: RunVerdictChange,
  frameworks: readonly string[],
): string | null {
  const changes = change.changes.filter((c) => frameworks.includes(c.framework));
  if (changes.length === 0) return null;
  return JSON.stringify({
    id: eventId,
    type: 'status.changed' satisfies WebhookEventType,
    created_at: createdAt,
    subscription_id: subscriptionId,
    data: {
      market: change.market,
      ticker: change.ticker,
      changes,
      snapshot: { date: change.snapshotDate, screened_at: change.screenedAt, source: change.source },
      previous_snapshot: { date: change.previous.snapshotDate, screened_at: change.previous.screenedAt },
      synthetic: change.synthetic,
      report_path: `/api/screen/${change.market}/${encodeURIComponent(change.ticker)}`,
    },
  });
}
