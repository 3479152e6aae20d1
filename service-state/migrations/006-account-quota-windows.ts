import type { ServiceMigration } from './migration.ts';

/**
 * Quota windows of whole accounts (docs/access.md, "Quotas and windows"): the self-serve tiers'
 * allowance is the account's, shared by all its keys, so revoking a key and creating another
 * cannot reset it. Partner keys keep their windows per key in `quota_windows`.
 */
const table = (counter: string) => `
CREATE TABLE account_quota_windows (
  account       TEXT NOT NULL REFERENCES accounts(name),
  "window"      TEXT NOT NULL CHECK ("window" IN ('daily', 'monthly')),
  started_at_ms ${counter} NOT NULL,
  used          ${counter} NOT NULL,
  PRIMARY KEY (account, "window")
);
`;

export const ACCOUNT_QUOTA_WINDOWS_MIGRATION: ServiceMigration = {
  version: 6,
  name: 'account-quota-windows',
  libsql: table('INTEGER'),
  postgres: table('BIGINT'),
};
