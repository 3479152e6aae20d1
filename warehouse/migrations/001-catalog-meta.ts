import type { Migration } from './migration.ts';

/** The catalog's own bookkeeping: which lake it describes and when views were last laid. */
export const catalogMeta: Migration = {
  version: 1,
  name: 'catalog-meta',
  statements: () => [`CREATE TABLE IF NOT EXISTS catalog_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`],
};
