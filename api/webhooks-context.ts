import type { ServiceDb } from '../service-state/db.ts';
import { WebhookStore } from '../webhooks/webhook-store.ts';
import type { TargetPolicy } from '../webhooks/target-policy.ts';

/** What the platform passes the webhook endpoints (docs/webhooks.md). */
export interface WebhookDeps {
  db: ServiceDb;
  /** The key that seals subscription secrets (webhooks/secret-box.ts). */
  secretKey: Buffer;
  /** Which delivery targets are accepted (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  policy: TargetPolicy;
}

/** The webhook use-cases' context. */
export interface WebhookContext {
  store: WebhookStore;
  secretKey: Buffer;
  policy: TargetPolicy;
  now: () => Date;
}

export function createWebhookContext(deps: WebhookDeps, now: () => Date): WebhookContext {
  return { store: new WebhookStore(deps.db), secretKey: deps.secretKey, policy: deps.policy, now };
}
