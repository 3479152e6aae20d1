import type { Command } from 'commander';
import { SUBSCRIPTION_ID_PATTERN } from '../../webhooks/events.ts';
import { WebhookStore } from '../../webhooks/webhook-store.ts';
import { printJson, refuse, withServiceDb } from '../operator-command.ts';

/** Runs one operation on the webhook subscriptions of the service state (DATABASE_URL or DATA_DIR/service.db). */
function withWebhooks(action: (store: WebhookStore) => Promise<void>): Promise<void> {
  return withServiceDb((db) => action(new WebhookStore(db)));
}

/**
 * `webhooks …`: operators' view of the status-change subscriptions customers make through the API
 * (docs/webhooks.md, "Operators"). Secrets are never printed: the store holds them sealed.
 */
export function registerWebhookCommands(program: Command): void {
  const webhooks = program.command('webhooks').description("customers' status-change webhook subscriptions (DATA_DIR/service.db)");
  webhooks
    .command('list')
    .description('list live subscriptions (never their secrets)')
    .option('--account <name>', 'only this account')
    .action((options: { account?: string }) =>
      withWebhooks(async (store) => {
        const subscriptions = await store.listSubscriptions(options.account ?? null);
        const view = subscriptions.map((s) => ({
          id: s.subscriptionId,
          account: s.account,
          created_by_key_id: s.createdByKeyId,
          url: s.url,
          market: s.market,
          tickers: s.tickers,
          frameworks: s.frameworks,
          events: s.events,
          created_at: s.createdAt,
        }));
        printJson(view);
      }),
    );
  webhooks
    .command('delete')
    .description("stop a subscription (as its account's DELETE /api/webhooks/{id} would); events not yet delivered are dropped")
    .argument('<id>', 'the subscription id (whs_…)')
    .action((id: string) =>
      withWebhooks(async (store) => {
        if (!SUBSCRIPTION_ID_PATTERN.test(id))
          return refuse(`'${id}' is not a subscription id; ids look like whs_ followed by 24 hex digits (see 'faithscreen webhooks list')`);
        const subscription = await store.subscription(id);
        if (!subscription || subscription.deletedAt !== null) return refuse(`no live subscription ${id}; see 'faithscreen webhooks list'`);
        await store.deleteSubscription(subscription.account, id, new Date().toISOString());
        process.stdout.write(`deleted ${id} of account '${subscription.account}' (${subscription.url})\n`);
      }),
    );
}
