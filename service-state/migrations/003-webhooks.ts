import type { ServiceMigration } from './migration.ts';

/**
 * Status-change webhooks (docs/webhooks.md): each account's subscriptions, the events found for
 * them and every delivery attempt. A subscription's signing secret is stored encrypted
 * (AES-256-GCM under the webhook secret key, never in this database); a deleted subscription
 * keeps its row, marked, so its events and attempts stay explained. One event per subscription,
 * ticker and screening run: finding changes again for a run adds nothing.
 */
const TABLES = `
CREATE TABLE webhook_subscriptions (
  subscription_id   TEXT PRIMARY KEY,
  account           TEXT NOT NULL REFERENCES accounts (name),
  created_by_key_id TEXT NOT NULL,
  url               TEXT NOT NULL,
  market            TEXT,
  tickers           TEXT,
  frameworks        TEXT NOT NULL,
  events            TEXT NOT NULL,
  secret_sealed     TEXT NOT NULL,
  created_at        TEXT NOT NULL,
  deleted_at        TEXT,
  CHECK ((market IS NULL) <> (tickers IS NULL))
);
CREATE INDEX webhook_subscriptions_by_account ON webhook_subscriptions (account);

CREATE TABLE webhook_events (
  event_id         TEXT PRIMARY KEY,
  subscription_id  TEXT NOT NULL REFERENCES webhook_subscriptions (subscription_id),
  type             TEXT NOT NULL,
  market           TEXT NOT NULL,
  ticker           TEXT NOT NULL,
  run_id           TEXT NOT NULL,
  body             TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  created_at       TEXT NOT NULL,
  finished_at      TEXT,
  UNIQUE (subscription_id, run_id, market, ticker)
);
CREATE INDEX webhook_events_by_subscription ON webhook_events (subscription_id, created_at);

CREATE TABLE webhook_attempts (
  event_id      TEXT NOT NULL REFERENCES webhook_events (event_id),
  attempt       INTEGER NOT NULL,
  attempted_at  TEXT NOT NULL,
  status_code   INTEGER,
  error         TEXT,
  duration_ms   INTEGER NOT NULL,
  PRIMARY KEY (event_id, attempt)
);
`;

export const WEBHOOKS_MIGRATION: ServiceMigration = {
  version: 3,
  name: 'webhooks',
  // Nothing here differs between the engines: no 64-bit counters, no reserved words.
  libsql: TABLES,
  postgres: TABLES,
};
