import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { findRunVerdictChanges, type RunVerdictChange } from '../warehouse/run-verdict-changes.ts';
import { DEFAULT_WEBHOOK_RETRY, WEBHOOK_LOG_RETENTION_DAYS, type WebhookRetry } from '../webhooks/delivery-policy.ts';
import { deliver } from '../webhooks/deliver.ts';
import { newEventId, statusChangedBody } from '../webhooks/events.ts';
import { openSecret } from '../webhooks/secret-box.ts';
import type { TargetPolicy } from '../webhooks/target-policy.ts';
import { eventOutsideScope, liveScopeOf } from '../webhooks/subscription-grant.ts';
import type { SubscriptionRecord, WebhookStore } from '../webhooks/webhook-store.ts';

/** What the worker needs to deliver webhooks: the service state, the secret key, the target policy and the retry schedule. */
export interface WebhookWorkerDeps {
  store: WebhookStore;
  secretKey: Buffer;
  policy: TargetPolicy;
  retry?: WebhookRetry;
  /** The task queue each subscription's deliveries run on (a worker polls it with slots of its own); the run's queue when unset. */
  deliveryTaskQueue?: string;
}

export interface FindEventsRequest {
  /** The screening run whose published snapshots are compared with the ones just before them. */
  runId: string;
  /** Markets the run screened; null for all. */
  markets: string[] | null;
}

export interface FoundEvents {
  /** Pending events to deliver (new ones, and ones a previous pass recorded but did not finish). */
  eventIds: string[];
  /** The same events by subscription: each subscription's are delivered by a workflow of its own. */
  bySubscription?: Array<{ subscriptionId: string; eventIds: string[] }>;
  retry: WebhookRetry;
  taskQueue?: string;
}

/** How often an attempt tells Temporal it is alive; the workflow's heartbeat timeout is a few of these. */
const HEARTBEAT_EVERY_MS = 1_000;

/** What each market's query must cover: the whole market, or only the tickers subscribed in it. */
function marketScopes(subscriptions: readonly SubscriptionRecord[], markets: readonly string[] | null): Map<string, Set<string> | null> {
  const scopes = new Map<string, Set<string> | null>();
  for (const subscription of subscriptions) {
    if (subscription.market !== null) {
      scopes.set(subscription.market, null);
      continue;
    }
    for (const entry of subscription.tickers ?? []) {
      const [market, ticker] = entry.split('/') as [string, string];
      const scope = scopes.get(market);
      if (scope === null) continue;
      scopes.set(market, (scope ?? new Set()).add(ticker));
    }
  }
  for (const market of [...scopes.keys()]) if (markets !== null && !markets.includes(market)) scopes.delete(market);
  return scopes;
}

function covers(subscription: SubscriptionRecord, change: RunVerdictChange): boolean {
  if (!subscription.events.includes('status.changed')) return false;
  if (subscription.market !== null) return subscription.market === change.market;
  return (subscription.tickers ?? []).includes(`${change.market}/${change.ticker}`);
}

/** The webhook activities; without `deps` (a worker with no service state) there is never anything to deliver. */
export function createWebhookActivities(dataDir: string, deps?: WebhookWorkerDeps) {
  const retry = deps?.retry ?? DEFAULT_WEBHOOK_RETRY;
  return {
    /**
     * Compares the run's snapshots with the ones just before them for every subscribed ticker and
     * records one event per subscription and ticker that changed in the subscription's
     * frameworks. Idempotent: a retried call finds the events already recorded.
     */
    async findWebhookEvents(request: FindEventsRequest): Promise<FoundEvents> {
      if (!deps) return { eventIds: [], bySubscription: [], retry };
      const subscriptions: SubscriptionRecord[] = [];
      for (const subscription of await deps.store.deliverableSubscriptions()) {
        if (!subscription.events.includes('status.changed')) continue;
        // Narrowed to what its key may see now; a revoked key's subscription finds nothing.
        const live = liveScopeOf(subscription, await deps.store.creatorKeyGrant(subscription.subscriptionId));
        if (live.subscription) subscriptions.push(live.subscription);
      }
      const scopes = marketScopes(subscriptions, request.markets);
      const eventIds: string[] = [];
      const bySubscription = new Map<string, string[]>();
      for (const [market, tickers] of scopes) {
        const changes = await withDuckDB(':memory:', { threads: 1 }, (c) =>
          findRunVerdictChanges(c, dataDir, { runId: request.runId, market, tickers: tickers === null ? null : [...tickers] }),
        );
        for (const change of changes) {
          for (const subscription of subscriptions.filter((s) => covers(s, change))) {
            const eventId = newEventId();
            const createdAt = new Date().toISOString();
            const body = statusChangedBody(eventId, subscription.subscriptionId, createdAt, change, subscription.frameworks);
            if (body === null) continue;
            const stored = await deps.store.recordEvent({
              eventId,
              subscriptionId: subscription.subscriptionId,
              type: 'status.changed',
              market: change.market,
              ticker: change.ticker,
              runId: request.runId,
              body,
              createdAt,
            });
            if (stored.status !== 'pending') continue;
            eventIds.push(stored.eventId);
            bySubscription.set(subscription.subscriptionId, [...(bySubscription.get(subscription.subscriptionId) ?? []), stored.eventId]);
          }
        }
      }
      return {
        eventIds,
        bySubscription: [...bySubscription].map(([subscriptionId, ids]) => ({ subscriptionId, eventIds: ids })),
        retry,
        ...(deps.deliveryTaskQueue ? { taskQueue: deps.deliveryTaskQueue } : {}),
      };
    },

    /**
     * One delivery attempt, recorded whatever its outcome. A 2xx ends the event as delivered; a
     * refused target ends it as failed (retrying cannot help); anything else throws so Temporal
     * retries it on the backoff schedule.
     */
    async deliverWebhookEvent(eventId: string): Promise<'delivered' | 'skipped'> {
      if (!deps) return 'skipped';
      const event = await deps.store.event(eventId);
      if (!event || event.status !== 'pending') return 'skipped';
      const subscription = await deps.store.subscription(event.subscriptionId);
      if (!subscription || subscription.deletedAt !== null) {
        await deps.store.finishEvent(eventId, 'failed', new Date().toISOString());
        return 'skipped';
      }
      const live = liveScopeOf(subscription, await deps.store.creatorKeyGrant(subscription.subscriptionId));
      const hold =
        (await deps.store.accountHold(subscription.subscriptionId)) ??
        live.hold ??
        (live.subscription ? eventOutsideScope(live.subscription, event) : null);
      if (hold !== null) {
        // Recorded as an attempt that sent nothing, so the deliveries list says why the event ended.
        await deps.store.recordAttempt(eventId, {
          attemptedAt: new Date().toISOString(),
          statusCode: null,
          error: `not sent: ${hold}`,
          durationMs: 0,
        });
        await deps.store.finishEvent(eventId, 'failed', new Date().toISOString());
        return 'skipped';
      }
      const secret = openSecret(deps.secretKey, subscription.subscriptionId, subscription.secretSealed);
      const attemptedAt = new Date().toISOString();
      const context = Context.current();
      // Heartbeats carry Temporal's cancellation (and a timed-out attempt's) back to this attempt.
      const heartbeat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      const outcome = await deliver(deps.policy, subscription.url, secret, event.body, event.eventId, {
        signal: context.cancellationSignal,
      }).finally(() => clearInterval(heartbeat));
      const number = await deps.store.recordAttempt(eventId, {
        attemptedAt,
        statusCode: outcome.statusCode,
        error: outcome.error,
        durationMs: outcome.durationMs,
      });
      if (outcome.error === null) {
        await deps.store.finishEvent(eventId, 'delivered', new Date().toISOString());
        return 'delivered';
      }
      // Cancelled (or timed out): recorded above, then the cancellation goes on to Temporal.
      context.cancellationSignal.throwIfAborted();
      if (outcome.refused) {
        await deps.store.finishEvent(eventId, 'failed', new Date().toISOString());
        throw ApplicationFailure.nonRetryable(`attempt ${number} of ${eventId}: ${outcome.error}`, 'WebhookTargetRefused');
      }
      throw ApplicationFailure.retryable(`attempt ${number} of ${eventId}: ${outcome.error}`, 'WebhookDeliveryFailed');
    },

    /** Removes delivery-log entries older than the retention (WEBHOOK_LOG_RETENTION_DAYS). */
    async trimWebhookLog(): Promise<{ events: number; attempts: number }> {
      if (!deps) return { events: 0, attempts: 0 };
      return deps.store.trimLog(new Date(Date.now() - WEBHOOK_LOG_RETENTION_DAYS * 24 * 60 * 60_000).toISOString());
    },

    /** Ends an event whose retries ran out as failed. */
    async abandonWebhookEvent(eventId: string): Promise<void> {
      if (deps) await deps.store.finishEvent(eventId, 'failed', new Date().toISOString());
    },
  };
}
