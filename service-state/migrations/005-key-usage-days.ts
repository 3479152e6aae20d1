import type { ServiceMigration } from './migration.ts';

/**
 * Units each key spent per UTC day, and when it was last used that day: the account page's
 * 30-day chart and "last used" (docs/access.md, "Account pages"). The quota windows stay the
 * source of truth for limits; these rows are history only.
 */
export const KEY_USAGE_DAYS_MIGRATION: ServiceMigration = {
  version: 5,
  name: 'key-usage-days',
  libsql: `
CREATE TABLE key_usage_days (
  key_id          TEXT NOT NULL REFERENCES api_keys(key_id),
  day             TEXT NOT NULL,
  units           INTEGER NOT NULL,
  last_used_at_ms INTEGER NOT NULL,
  PRIMARY KEY (key_id, day)
);
`,
  postgres: `
CREATE TABLE key_usage_days (
  key_id          TEXT NOT NULL REFERENCES api_keys(key_id),
  day             TEXT NOT NULL,
  units           BIGINT NOT NULL,
  last_used_at_ms BIGINT NOT NULL,
  PRIMARY KEY (key_id, day)
);
`,
};
