/**
 * How a webhook event is retried (docs/webhooks.md, "Retries"): exponential backoff from
 * `initialIntervalMs`, doubling up to `maximumIntervalMs`, until `giveUpAfterMs` after the first
 * attempt. Plain numbers so the worker's configuration can cross into workflow code.
 */
export interface WebhookRetry {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  giveUpAfterMs: number;
}

/** Production: 30 s, 1 min, 2 min, … capped at 1 h, for a day (about 30 attempts). */
export const DEFAULT_WEBHOOK_RETRY: WebhookRetry = {
  initialIntervalMs: 30_000,
  maximumIntervalMs: 60 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
};

/** Deliveries in flight at once per screening run, in workflows started before each subscription had its own. */
export const DELIVERY_LANES = 4;

/**
 * Events of one subscription in flight at once. Small, so a receiver that hangs holds at most
 * this many of the webhook queue's activity slots; its other events wait behind it, and no
 * other subscription's do (each has a workflow of its own).
 */
export const SUBSCRIPTION_LANES = 2;

/** Days the delivery log (events and their attempts) is kept; lake maintenance trims older entries daily. */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;
