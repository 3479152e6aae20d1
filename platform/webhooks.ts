import type { WebhookDeps } from '../api/webhooks-context.ts';
import type { ServiceDb } from '../service-state/db.ts';
import { loadWebhookKey } from '../webhooks/secret-box.ts';
import type { TargetPolicy } from '../webhooks/target-policy.ts';
import type { Config } from './config.ts';

/** Which webhook targets the configuration accepts (https and public addresses unless the operator allows more). */
export function webhookPolicyOf(config: Config): TargetPolicy {
  return { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS };
}

/** What the API and the worker share to manage and deliver webhooks (docs/webhooks.md). */
export function webhookDepsOf(config: Config, db: ServiceDb): WebhookDeps {
  return { db, secretKey: loadWebhookKey(config.dataDir, config.WEBHOOK_SECRET_KEY), policy: webhookPolicyOf(config) };
}
