import type { ServiceMigration } from './migration.ts';

/** Accounts, API keys (only a keyed hash of the secret) and quota usage per window. */
export const ACCESS_MIGRATION: ServiceMigration = {
  version: 1,
  name: 'access',
  libsql: `
CREATE TABLE accounts (
  name        TEXT PRIMARY KEY,
  tier        TEXT NOT NULL CHECK (tier IN ('free', 'pro', 'team', 'enterprise', 'partner')),
  lapsed_at   TEXT,
  created_at  TEXT NOT NULL
);
CREATE TABLE api_keys (
  key_id             TEXT PRIMARY KEY,
  account            TEXT NOT NULL REFERENCES accounts(name),
  secret_hash        TEXT NOT NULL,
  allowed_markets    TEXT,
  allowed_endpoints  TEXT,
  allowed_frameworks TEXT,
  daily_limit        INTEGER,
  monthly_quota      INTEGER,
  cost_weights       TEXT,
  created_at         TEXT NOT NULL,
  revoked_at         TEXT
);
CREATE TABLE quota_windows (
  key_id        TEXT NOT NULL REFERENCES api_keys(key_id),
  window        TEXT NOT NULL CHECK (window IN ('daily', 'monthly')),
  started_at_ms INTEGER NOT NULL,
  used          INTEGER NOT NULL,
  PRIMARY KEY (key_id, window)
);
`,
  // The same tables; BIGINT where SQLite's INTEGER holds 64 bits (epoch milliseconds, counters),
  // and "window" quoted because PostgreSQL reserves the word.
  postgres: `
CREATE TABLE accounts (
  name        TEXT PRIMARY KEY,
  tier        TEXT NOT NULL CHECK (tier IN ('free', 'pro', 'team', 'enterprise', 'partner')),
  lapsed_at   TEXT,
  created_at  TEXT NOT NULL
);
CREATE TABLE api_keys (
  key_id             TEXT PRIMARY KEY,
  account            TEXT NOT NULL REFERENCES accounts(name),
  secret_hash        TEXT NOT NULL,
  allowed_markets    TEXT,
  allowed_endpoints  TEXT,
  allowed_frameworks TEXT,
  daily_limit        BIGINT,
  monthly_quota      BIGINT,
  cost_weights       TEXT,
  created_at         TEXT NOT NULL,
  revoked_at         TEXT
);
CREATE TABLE quota_windows (
  key_id        TEXT NOT NULL REFERENCES api_keys(key_id),
  "window"      TEXT NOT NULL CHECK ("window" IN ('daily', 'monthly')),
  started_at_ms BIGINT NOT NULL,
  used          BIGINT NOT NULL,
  PRIMARY KEY (key_id, "window")
);
`,
};
