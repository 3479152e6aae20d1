import type { z } from 'zod';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import { badRequest, conflict, notFound, unauthorized } from '../../common/app-error.ts';
import type { Grant } from '../../common/grants.ts';
import { newSigningSecret, newSubscriptionId, SUBSCRIPTION_ID_PATTERN, WEBHOOK_EVENT_TYPES } from '../../webhooks/events.ts';
import { sealSecret } from '../../webhooks/secret-box.ts';
import { checkTarget, TargetRefused } from '../../webhooks/target-policy.ts';
import type { SubscriptionRecord } from '../../webhooks/webhook-store.ts';
import { assertMarketGranted, scopeFrameworks } from '../access-scope.ts';
import {
  WEBHOOK_DELIVERIES_DEFAULT,
  WEBHOOK_DELIVERIES_MAX,
  WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT,
  WEBHOOK_TICKERS_PER_SUBSCRIPTION,
  type createWebhookBodySchema,
} from '../schemas/webhooks.ts';
import { checkMarket, normaliseTicker, parseFrameworks } from '../validation.ts';
import type { WebhookContext } from '../webhooks-context.ts';

type CreateBody = z.output<typeof createWebhookBodySchema>;

/** Subscriptions belong to an account: the key's. */
function accountOf(grant: Grant | undefined): { account: string; keyId: string } {
  if (!grant?.account || !grant.keyId)
    throw unauthorized('webhook subscriptions belong to an account: send an API key (X-API-Key) of that account', 'missing_api_key');
  return { account: grant.account, keyId: grant.keyId };
}

/** `market/TICKER` entries, each checked and normalised, without repeats. */
function checkTickers(entries: readonly string[]): string[] {
  if (entries.length === 0)
    throw badRequest('body.tickers: name at least one market/TICKER, or subscribe a whole market with `market`', 'invalid_tickers');
  if (entries.length > WEBHOOK_TICKERS_PER_SUBSCRIPTION)
    throw badRequest(
      `body.tickers: ${entries.length} given; at most ${WEBHOOK_TICKERS_PER_SUBSCRIPTION} per subscription`,
      'invalid_tickers',
    );
  const checked = entries.map((entry, index) => {
    const [market, ticker, ...rest] = entry.split('/');
    if (market === undefined || ticker === undefined || rest.length > 0)
      throw badRequest(`body.tickers[${index}]: '${entry}' is not market/TICKER, e.g. us/AAPL`, 'invalid_tickers');
    return `${checkMarket(market, `body.tickers[${index}]`)}/${normaliseTicker(ticker, `body.tickers[${index}]`)}`;
  });
  return [...new Set(checked)];
}

function checkEvents(events: readonly string[] | undefined): string[] {
  if (events === undefined) return [...WEBHOOK_EVENT_TYPES];
  const unknown = events.filter((event) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event));
  if (events.length === 0 || unknown.length > 0)
    throw badRequest(
      `body.events: ${unknown.length > 0 ? `unknown event type(s) ${unknown.join(', ')}` : 'name at least one event type'}; ` +
        `valid: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
      'unknown_event',
    );
  return WEBHOOK_EVENT_TYPES.filter((event) => events.includes(event));
}

/** The subscription as the API shows it (never its secret). */
export function subscriptionView(record: SubscriptionRecord) {
  return {
    id: record.subscriptionId,
    url: record.url,
    market: record.market,
    tickers: record.tickers,
    frameworks: record.frameworks,
    events: record.events,
    created_at: record.createdAt,
  };
}

/**
 * Creates a subscription for the key's account. Order of checks: the body's values (400), then
 * the key's grant (403), then the delivery target (400: it resolves the host), then the cap (409).
 */
export async function createSubscription(context: WebhookContext, body: CreateBody, grant: Grant | undefined) {
  const { account, keyId } = accountOf(grant);
  if ((body.market === undefined) === (body.tickers === undefined))
    throw badRequest(
      'body: give either `market` (every ticker of one market) or `tickers` (market/TICKER entries), not both or neither',
      'invalid_target',
    );
  const market = body.market === undefined ? null : checkMarket(body.market, 'body.market');
  const tickers = body.tickers === undefined ? null : checkTickers(body.tickers);
  const frameworks = parseFrameworks(body.frameworks, 'body.frameworks') ?? [...FRAMEWORK_IDS];
  const events = checkEvents(body.events);
  for (const m of market !== null ? [market] : new Set(tickers!.map((t) => t.split('/')[0]!))) assertMarketGranted(m, grant);
  scopeFrameworks(frameworks, grant);
  try {
    await checkTarget(context.policy, body.url);
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    throw badRequest(error.message, error.kind === 'invalid_url' ? 'invalid_webhook_url' : 'webhook_url_not_allowed');
  }
  const subscriptionId = newSubscriptionId();
  const secret = newSigningSecret();
  const record: SubscriptionRecord = {
    subscriptionId,
    account,
    createdByKeyId: keyId,
    url: body.url,
    market,
    tickers,
    frameworks,
    events,
    secretSealed: sealSecret(context.secretKey, subscriptionId, secret),
    createdAt: context.now().toISOString(),
    deletedAt: null,
  };
  if (!(await context.store.createSubscription(record, WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT)))
    throw conflict(
      `account '${account}' already has ${WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT} webhook subscriptions, the most it may have; delete one first`,
      'too_many_subscriptions',
    );
  return { ...subscriptionView(record), secret };
}

export async function listSubscriptions(context: WebhookContext, grant: Grant | undefined) {
  const { account } = accountOf(grant);
  const subscriptions = await context.store.listSubscriptions(account);
  return { subscriptions: subscriptions.map(subscriptionView), limit: WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT };
}

/** 404 for an id that is malformed, unknown, deleted or another account's: the answer never says which. */
function unknownSubscription(id: string) {
  return notFound(
    `no webhook subscription '${id}' for this account; GET /api/webhooks lists yours (ids look like whs_ + 24 hex digits)`,
    'unknown_subscription',
  );
}

async function ownSubscription(context: WebhookContext, id: string, account: string): Promise<SubscriptionRecord> {
  if (!SUBSCRIPTION_ID_PATTERN.test(id)) throw unknownSubscription(id);
  const record = await context.store.subscription(id);
  if (!record || record.account !== account || record.deletedAt !== null) throw unknownSubscription(id);
  return record;
}

export async function deleteSubscription(context: WebhookContext, id: string, grant: Grant | undefined) {
  const { account } = accountOf(grant);
  await ownSubscription(context, id, account);
  if (!(await context.store.deleteSubscription(account, id, context.now().toISOString()))) throw unknownSubscription(id);
  return { id, deleted: true };
}

export async function subscriptionDeliveries(context: WebhookContext, id: string, limitText: string | undefined, grant: Grant | undefined) {
  const { account } = accountOf(grant);
  const limit = limitText === undefined ? WEBHOOK_DELIVERIES_DEFAULT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > WEBHOOK_DELIVERIES_MAX)
    throw badRequest(`query.limit: ${limitText} is out of range; give 1 to ${WEBHOOK_DELIVERIES_MAX}`, 'invalid_limit');
  await ownSubscription(context, id, account);
  const events = await context.store.deliveries(id, limit);
  return {
    subscription_id: id,
    deliveries: events.map((event) => ({
      event_id: event.eventId,
      type: event.type,
      market: event.market,
      ticker: event.ticker,
      status: event.status,
      created_at: event.createdAt,
      finished_at: event.finishedAt,
      body: event.body,
      attempts: event.attempts.map((a) => ({
        attempt: a.attempt,
        attempted_at: a.attemptedAt,
        status_code: a.statusCode,
        error: a.error,
        duration_ms: a.durationMs,
      })),
    })),
  };
}
