import Router from '@koa/router';
import type { Middleware } from 'koa';
import { declareEndpoint, grantOf } from '../access-scope.ts';
import { createWebhookBodySchema, webhookDeliveriesQuerySchema } from '../schemas/webhooks.ts';
import { createSubscription, deleteSubscription, listSubscriptions, subscriptionDeliveries } from '../use-cases/manage-webhooks.ts';
import { parseRequest } from '../validation.ts';
import type { WebhookContext } from '../webhooks-context.ts';

/**
 * Quota units (docs/access.md): creating a subscription resolves and checks its target and
 * creates state (5); reading the delivery log 1; listing and deleting are free. Deliveries
 * themselves cost nothing.
 */
export const WEBHOOK_COSTS = { create: 5, list: 0, delete: 0, deliveries: 1 } as const;

/** Self-serve status-change webhooks (docs/webhooks.md), tag `webhooks`; a key sees only its own account's subscriptions. */
export function webhookRoutes(service: WebhookContext, access: Middleware[]): Router {
  const router = new Router({ prefix: '/api/webhooks' });
  const noStore: Middleware = async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  };

  router.post(
    '/',
    declareEndpoint(() => ({ tag: 'webhooks', cost: WEBHOOK_COSTS.create })),
    ...access,
    noStore,
    async (ctx) => {
      const body = parseRequest(createWebhookBodySchema, ctx.request.body ?? {}, 'body');
      ctx.status = 201;
      ctx.body = await createSubscription(service, body, grantOf(ctx));
    },
  );

  router.get(
    '/',
    declareEndpoint(() => ({ tag: 'webhooks', cost: WEBHOOK_COSTS.list })),
    ...access,
    noStore,
    async (ctx) => {
      ctx.body = await listSubscriptions(service, grantOf(ctx));
    },
  );

  router.delete(
    '/:id',
    declareEndpoint(() => ({ tag: 'webhooks', cost: WEBHOOK_COSTS.delete })),
    ...access,
    noStore,
    async (ctx) => {
      ctx.body = await deleteSubscription(service, ctx.params.id!, grantOf(ctx));
    },
  );

  router.get(
    '/:id/deliveries',
    declareEndpoint(() => ({ tag: 'webhooks', cost: WEBHOOK_COSTS.deliveries })),
    ...access,
    noStore,
    async (ctx) => {
      const query = parseRequest(webhookDeliveriesQuerySchema, ctx.query, 'query');
      ctx.body = await subscriptionDeliveries(service, ctx.params.id!, query.limit, grantOf(ctx));
    },
  );

  return router;
}
