import type { ServiceMigration } from './migration.ts';

/**
 * Units an account's own pages spent per UTC day (docs/access.md, "Account pages"): a portfolio
 * screened on /account/portfolio spends the account's allowance with no key involved, so its
 * history is the account's, beside its keys' in `key_usage_days` (whose rows must name a key).
 * History only: limits are decided on `account_quota_windows`.
 */
const table = (counter: string) => `
CREATE TABLE account_page_usage_days (
  account         TEXT NOT NULL REFERENCES accounts(name),
  day             TEXT NOT NULL,
  units           ${counter} NOT NULL,
  last_used_at_ms ${counter} NOT NULL,
  PRIMARY KEY (account, day)
);
`;

export const ACCOUNT_PAGE_USAGE_DAYS_MIGRATION: ServiceMigration = {
  version: 8,
  name: 'account-page-usage-days',
  libsql: table('INTEGER'),
  postgres: table('BIGINT'),
};
