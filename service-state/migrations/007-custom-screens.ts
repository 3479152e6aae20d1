import type { ServiceMigration } from './migration.ts';

/**
 * Custom screens (docs/custom-screens.md): an account's named screens, each a base framework
 * plus a custom layer, and every version of its definition. A change never edits a version: it
 * adds the next one with its effective date, so a verdict that names a version can be explained
 * later. The definition is JSON (activities, tickers, thresholds), checked by the API before it
 * is stored. Deleting a screen deletes its versions.
 */
const TABLES = `
CREATE TABLE custom_screens (
  screen_id   TEXT PRIMARY KEY,
  account     TEXT NOT NULL REFERENCES accounts (name),
  slug        TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  UNIQUE (account, slug)
);

CREATE TABLE custom_screen_versions (
  screen_id       TEXT NOT NULL REFERENCES custom_screens (screen_id) ON DELETE CASCADE,
  version         INTEGER NOT NULL,
  effective_from  TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  created_by_key  TEXT,
  definition      TEXT NOT NULL,
  PRIMARY KEY (screen_id, version)
);
`;

export const CUSTOM_SCREENS_MIGRATION: ServiceMigration = {
  version: 7,
  name: 'custom-screens',
  // Nothing here differs between the engines.
  libsql: TABLES,
  postgres: TABLES,
};
