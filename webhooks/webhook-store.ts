import type { ServiceDb } from '../service-state/db.ts';
import { recordOf } from '../service-state/row-names.ts';

/** Subscriptions, events and delivery attempts in the service state (service-state/). Plain SQL, no policy. */

export interface SubscriptionRecord {
  subscriptionId: string;
  account: string;
  createdByKeyId: string;
  url: string;
  /** A whole market, or null when the subscription names tickers. */
  market: string | null;
  /** `market/TICKER` pairs, or null for a whole market. */
  tickers: string[] | null;
  frameworks: string[];
  events: string[];
  /** The signing secret, sealed (webhooks/secret-box.ts). */
  secretSealed: string;
  createdAt: string;
  deletedAt: string | null;
}

/** The grant of the key that created a subscription, as it stands now (null on an axis: unrestricted). */
export interface CreatorKeyGrant {
  keyId: string;
  revokedAt: string | null;
  allowedMarkets: string[] | null;
  allowedFrameworks: string[] | null;
  allowedEndpoints: string[] | null;
}

export type EventStatus = 'pending' | 'delivered' | 'failed';

export interface EventRecord {
  eventId: string;
  subscriptionId: string;
  type: string;
  market: string;
  ticker: string;
  runId: string;
  /** The exact JSON body every attempt sends. */
  body: string;
  status: EventStatus;
  createdAt: string;
  finishedAt: string | null;
}

export interface AttemptRecord {
  attempt: number;
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

interface SubscriptionRow {
  subscription_id: string;
  account: string;
  created_by_key_id: string;
  url: string;
  market: string | null;
  tickers: string | null;
  frameworks: string;
  events: string;
  secret_sealed: string;
  created_at: string;
  deleted_at: string | null;
}

interface EventRow {
  event_id: string;
  subscription_id: string;
  type: string;
  market: string;
  ticker: string;
  run_id: string;
  body: string;
  status: EventStatus;
  created_at: string;
  finished_at: string | null;
}

interface AttemptRow {
  event_id: string;
  attempt: number | string;
  attempted_at: string;
  status_code: number | string | null;
  error: string | null;
  duration_ms: number | string;
}

const SUBSCRIPTION_COLUMNS =
  'subscription_id, account, created_by_key_id, url, market, tickers, frameworks, events, secret_sealed, created_at, deleted_at';
const EVENT_COLUMNS = 'event_id, subscription_id, type, market, ticker, run_id, body, status, created_at, finished_at';

function subscriptionFrom(row: SubscriptionRow): SubscriptionRecord {
  return {
    ...recordOf(row),
    tickers: row.tickers === null ? null : (JSON.parse(row.tickers) as string[]),
    frameworks: JSON.parse(row.frameworks) as string[],
    events: JSON.parse(row.events) as string[],
  };
}

function attemptFrom(row: AttemptRow): AttemptRecord {
  return {
    attempt: Number(row.attempt),
    attemptedAt: row.attempted_at,
    statusCode: row.status_code === null ? null : Number(row.status_code),
    error: row.error,
    durationMs: Number(row.duration_ms),
  };
}

export class WebhookStore {
  constructor(private readonly db: ServiceDb) {}

  /**
   * Inserts a subscription unless the account already has `cap` live ones; false when it has.
   * Counting and inserting share one transaction and lock, so two requests at once cannot both
   * take the last place.
   */
  async createSubscription(record: SubscriptionRecord, cap: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.lock('webhook-subscriptions');
      const live = await tx.get<{ n: number | string }>(
        'SELECT count(*) AS n FROM webhook_subscriptions WHERE account = ? AND deleted_at IS NULL',
        [record.account],
      );
      if (Number(live?.n ?? 0) >= cap) return false;
      await tx.run(`INSERT INTO webhook_subscriptions (${SUBSCRIPTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        record.subscriptionId,
        record.account,
        record.createdByKeyId,
        record.url,
        record.market,
        record.tickers === null ? null : JSON.stringify(record.tickers),
        JSON.stringify(record.frameworks),
        JSON.stringify(record.events),
        record.secretSealed,
        record.createdAt,
        record.deletedAt,
      ]);
      return true;
    });
  }

  /** The account's live subscriptions (every account's when `account` is null: operators), oldest first. */
  async listSubscriptions(account: string | null): Promise<SubscriptionRecord[]> {
    const rows = await this.db.all<SubscriptionRow>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE deleted_at IS NULL${account === null ? '' : ' AND account = ?'}
       ORDER BY created_at, subscription_id`,
      account === null ? [] : [account],
    );
    return rows.map(subscriptionFrom);
  }

  /**
   * Live subscriptions of accounts that may use the API now (a paid tier, not lapsed): what the
   * change finder matches against. A lapsed account's subscriptions stay, silent, until it is reinstated.
   */
  async deliverableSubscriptions(): Promise<SubscriptionRecord[]> {
    const columns = SUBSCRIPTION_COLUMNS.split(', ')
      .map((column) => `s.${column}`)
      .join(', ');
    const rows = await this.db.all<SubscriptionRow>(
      `SELECT ${columns} FROM webhook_subscriptions s JOIN accounts a ON a.name = s.account
       WHERE s.deleted_at IS NULL AND a.lapsed_at IS NULL AND a.tier <> 'free' ORDER BY s.subscription_id`,
    );
    return rows.map(subscriptionFrom);
  }

  /**
   * Why the subscription's account may not receive deliveries now (lapsed, or on the free tier),
   * or null when it may. Asked at every attempt: an account that lapses while an event is being
   * retried stops receiving it.
   */
  async accountHold(subscriptionId: string): Promise<string | null> {
    const row = await this.db.get<{ account: string; tier: string; lapsed_at: string | null }>(
      `SELECT a.name AS account, a.tier, a.lapsed_at FROM webhook_subscriptions s JOIN accounts a ON a.name = s.account
       WHERE s.subscription_id = ?`,
      [subscriptionId],
    );
    if (!row) return 'the account no longer exists';
    if (row.lapsed_at !== null) return `account ${row.account} lapsed on ${row.lapsed_at.slice(0, 10)}`;
    if (row.tier === 'free') return `account ${row.account} is on the free tier, which has no webhooks`;
    return null;
  }

  /** The grant of the key that created the subscription, as it stands now; undefined when that key is gone. */
  async creatorKeyGrant(subscriptionId: string): Promise<CreatorKeyGrant | undefined> {
    const row = await this.db.get<{
      key_id: string;
      revoked_at: string | null;
      allowed_markets: string | null;
      allowed_frameworks: string | null;
      allowed_endpoints: string | null;
    }>(
      `SELECT k.key_id, k.revoked_at, k.allowed_markets, k.allowed_frameworks, k.allowed_endpoints
       FROM webhook_subscriptions s JOIN api_keys k ON k.key_id = s.created_by_key_id WHERE s.subscription_id = ?`,
      [subscriptionId],
    );
    if (!row) return undefined;
    const list = (text: string | null) => (text === null ? null : (JSON.parse(text) as string[]));
    return {
      keyId: row.key_id,
      revokedAt: row.revoked_at,
      allowedMarkets: list(row.allowed_markets),
      allowedFrameworks: list(row.allowed_frameworks),
      allowedEndpoints: list(row.allowed_endpoints),
    };
  }

  /** The live subscriptions a key created (what revoking it offers to end). */
  async subscriptionsCreatedBy(keyId: string): Promise<SubscriptionRecord[]> {
    const rows = await this.db.all<SubscriptionRow>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE created_by_key_id = ? AND deleted_at IS NULL
       ORDER BY created_at, subscription_id`,
      [keyId],
    );
    return rows.map(subscriptionFrom);
  }

  /** Marks every live subscription the key created deleted (revoking it, asked to end them); returns their ids. */
  async deleteSubscriptionsCreatedBy(keyId: string, at: string): Promise<string[]> {
    const live = await this.subscriptionsCreatedBy(keyId);
    for (const subscription of live) await this.deleteSubscription(subscription.account, subscription.subscriptionId, at);
    return live.map((subscription) => subscription.subscriptionId);
  }

  /** A subscription by id, deleted or not. */
  async subscription(subscriptionId: string): Promise<SubscriptionRecord | undefined> {
    const row = await this.db.get<SubscriptionRow>(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE subscription_id = ?`, [
      subscriptionId,
    ]);
    return row ? subscriptionFrom(row) : undefined;
  }

  /** Marks the account's live subscription deleted; false when the account has no such live subscription. */
  async deleteSubscription(account: string, subscriptionId: string, at: string): Promise<boolean> {
    const changed = await this.db.run(
      'UPDATE webhook_subscriptions SET deleted_at = ? WHERE subscription_id = ? AND account = ? AND deleted_at IS NULL',
      [at, subscriptionId, account],
    );
    return changed > 0;
  }

  /**
   * Records an event unless the subscription already has one for this run and ticker; returns
   * the event that is stored either way (finding a run's changes twice adds nothing).
   */
  async recordEvent(event: Omit<EventRecord, 'status' | 'finishedAt'>): Promise<EventRecord> {
    await this.db.run(
      `INSERT INTO webhook_events (${EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, NULL)
       ON CONFLICT (subscription_id, run_id, market, ticker) DO NOTHING`,
      [event.eventId, event.subscriptionId, event.type, event.market, event.ticker, event.runId, event.body, event.createdAt],
    );
    const row = await this.db.get<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE subscription_id = ? AND run_id = ? AND market = ? AND ticker = ?`,
      [event.subscriptionId, event.runId, event.market, event.ticker],
    );
    return recordOf(row!);
  }

  async event(eventId: string): Promise<EventRecord | undefined> {
    const row = await this.db.get<EventRow>(`SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE event_id = ?`, [eventId]);
    return row ? recordOf(row) : undefined;
  }

  /** Appends an attempt, numbered after the event's previous ones. */
  async recordAttempt(eventId: string, attempt: Omit<AttemptRecord, 'attempt'>): Promise<number> {
    return this.db.transaction(async (tx) => {
      const last = await tx.get<{ n: number | string | null }>('SELECT max(attempt) AS n FROM webhook_attempts WHERE event_id = ?', [
        eventId,
      ]);
      const number = Number(last?.n ?? 0) + 1;
      await tx.run(
        'INSERT INTO webhook_attempts (event_id, attempt, attempted_at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)',
        [eventId, number, attempt.attemptedAt, attempt.statusCode, attempt.error, attempt.durationMs],
      );
      return number;
    });
  }

  /** Ends a pending event as delivered or failed. */
  async finishEvent(eventId: string, status: Exclude<EventStatus, 'pending'>, at: string): Promise<void> {
    await this.db.run("UPDATE webhook_events SET status = ?, finished_at = ? WHERE event_id = ? AND status = 'pending'", [
      status,
      at,
      eventId,
    ]);
  }

  /**
   * Removes events recorded before `before` (ISO instant) with their attempts: the delivery log's
   * retention. An event is at most a day in flight, so an event that old is finished or abandoned.
   */
  async trimLog(before: string): Promise<{ events: number; attempts: number }> {
    return this.db.transaction(async (tx) => {
      const attempts = await tx.run(
        'DELETE FROM webhook_attempts WHERE event_id IN (SELECT event_id FROM webhook_events WHERE created_at < ?)',
        [before],
      );
      const events = await tx.run('DELETE FROM webhook_events WHERE created_at < ?', [before]);
      return { events, attempts };
    });
  }

  /** The subscription's newest events with every attempt of each, newest event first. */
  async deliveries(subscriptionId: string, limit: number): Promise<Array<EventRecord & { attempts: AttemptRecord[] }>> {
    const events = (
      await this.db.all<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE subscription_id = ? ORDER BY created_at DESC, event_id DESC LIMIT ?`,
        [subscriptionId, limit],
      )
    ).map((row): EventRecord => recordOf(row));
    if (events.length === 0) return [];
    const attempts = await this.db.all<AttemptRow>(
      `SELECT event_id, attempt, attempted_at, status_code, error, duration_ms FROM webhook_attempts
       WHERE event_id IN (${events.map(() => '?').join(', ')}) ORDER BY event_id, attempt`,
      events.map((e) => e.eventId),
    );
    return events.map((event) => ({
      ...event,
      attempts: attempts.filter((row) => row.event_id === event.eventId).map(attemptFrom),
    }));
  }
}
