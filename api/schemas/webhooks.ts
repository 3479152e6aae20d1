import { z } from 'zod';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events.ts';

/** Request and response schemas of the webhook endpoints (registered by id for /openapi.json; docs/webhooks.md). */

export const WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT = 25;
export const WEBHOOK_TICKERS_PER_SUBSCRIPTION = 100;
export const WEBHOOK_DELIVERIES_DEFAULT = 50;
export const WEBHOOK_DELIVERIES_MAX = 200;

export const createWebhookBodySchema = z.strictObject({
  url: z.string().meta({
    description: 'where deliveries are POSTed: https, a public host (docs/webhooks.md)',
    example: 'https://hooks.example.com/faithscreen',
  }),
  market: z.string().optional().meta({ description: 'every ticker of one market; give this or `tickers`', example: 'us' }),
  tickers: z
    .array(z.string())
    .optional()
    .meta({
      description: `up to ${WEBHOOK_TICKERS_PER_SUBSCRIPTION} tickers as market/TICKER; give this or \`market\``,
      example: ['us/AAPL'],
    }),
  frameworks: z
    .array(z.string())
    .meta({ description: `framework ids whose status changes are sent: ${FRAMEWORK_IDS.join(', ')}`, example: ['shariah_aaoifi'] }),
  events: z
    .array(z.string())
    .optional()
    .meta({ description: `event types (default all): ${WEBHOOK_EVENT_TYPES.join(', ')}`, example: ['status.changed'] }),
});

export const webhookIdPathSchema = z.object({
  id: z.string().meta({ description: 'subscription id: whs_ followed by 24 lower-case hex digits', example: `whs_${'0'.repeat(24)}` }),
});

export const webhookDeliveriesQuerySchema = z.strictObject({
  limit: z
    .string()
    .regex(/^\d+$/, 'expected a whole number')
    .optional()
    .meta({ description: `newest events to return, 1 to ${WEBHOOK_DELIVERIES_MAX} (default ${WEBHOOK_DELIVERIES_DEFAULT})` }),
});

export const webhookSubscriptionSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    market: z.string().nullable(),
    tickers: z.array(z.string()).nullable(),
    frameworks: z.array(z.enum(FRAMEWORK_IDS)),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    created_at: z.string(),
  })
  .meta({ id: 'WebhookSubscription', description: 'a status-change subscription; its signing secret is shown only when it is created' });

export const createdWebhookSchema = webhookSubscriptionSchema
  .extend({
    secret: z.string().meta({
      description: 'the signing secret (whsec_…): shown once, here; verify each delivery’s Faithscreen-Signature with it',
    }),
  })
  .meta({ id: 'CreatedWebhookSubscription' });

export const webhookListSchema = z
  .object({ subscriptions: z.array(webhookSubscriptionSchema), limit: z.number().int() })
  .meta({ id: 'WebhookSubscriptionList', description: "the account's live subscriptions; `limit` is how many it may have" });

export const webhookDeliveriesSchema = z
  .object({
    subscription_id: z.string(),
    deliveries: z.array(
      z.object({
        event_id: z.string(),
        type: z.enum(WEBHOOK_EVENT_TYPES),
        market: z.string(),
        ticker: z.string(),
        status: z.enum(['pending', 'delivered', 'failed']).meta({
          description:
            'pending: being delivered or waiting for a retry; delivered: a 2xx came back; failed: retries ran out (a day) or the target was refused',
        }),
        created_at: z.string(),
        finished_at: z.string().nullable(),
        body: z.string().meta({ description: 'the exact JSON body every attempt sent' }),
        attempts: z.array(
          z.object({
            attempt: z.number().int(),
            attempted_at: z.string(),
            status_code: z.number().int().nullable(),
            error: z.string().nullable(),
            duration_ms: z.number().int(),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'WebhookDeliveries', description: 'the newest events of a subscription, newest first, each with every delivery attempt' });
