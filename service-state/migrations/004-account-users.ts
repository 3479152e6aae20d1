import type { ServiceMigration } from './migration.ts';

/**
 * Account users and their sign-in state (docs/access.md, "Account users and sign-in"): users
 * (email and an scrypt password hash), one-time set-password links, sessions and failed
 * sign-in attempts. Links and sessions are stored only as SHA-256 of their random token, so a
 * copy of the state cannot be used to sign in. The same tables on both engines; BIGINT for
 * epoch milliseconds on PostgreSQL.
 */
const tables = (millis: string) => `
CREATE TABLE account_users (
  user_id          TEXT PRIMARY KEY,
  account          TEXT NOT NULL REFERENCES accounts (name),
  email            TEXT NOT NULL UNIQUE,
  password_hash    TEXT,
  created_at       TEXT NOT NULL,
  password_set_at  TEXT
);
CREATE INDEX account_users_by_account ON account_users (account);

CREATE TABLE account_invites (
  token_hash     TEXT PRIMARY KEY,
  user_id        TEXT NOT NULL REFERENCES account_users (user_id),
  created_at     TEXT NOT NULL,
  expires_at_ms  ${millis} NOT NULL,
  used_at        TEXT
);
CREATE INDEX account_invites_by_user ON account_invites (user_id);

CREATE TABLE account_sessions (
  session_hash     TEXT PRIMARY KEY,
  user_id          TEXT NOT NULL REFERENCES account_users (user_id),
  created_at_ms    ${millis} NOT NULL,
  last_seen_at_ms  ${millis} NOT NULL
);
CREATE INDEX account_sessions_by_user ON account_sessions (user_id);

CREATE TABLE sign_in_failures (
  subject        TEXT NOT NULL,
  failed_at_ms   ${millis} NOT NULL
);
CREATE INDEX sign_in_failures_by_subject ON sign_in_failures (subject, failed_at_ms);
CREATE INDEX sign_in_failures_by_time ON sign_in_failures (failed_at_ms);
`;

export const ACCOUNT_USERS_MIGRATION: ServiceMigration = {
  version: 4,
  name: 'account-users',
  libsql: tables('INTEGER'),
  postgres: tables('BIGINT'),
};
