import type { Sql } from '../sql.ts';

/** What a catalog migration knows about the installation it runs in. */
export interface MigrationContext {
  /** Absolute path of the data directory. */
  dataDir: string;
  /** Absolute path of the lake root (`DATA_DIR/lake`). */
  lakeRoot: string;
}

/**
 * One numbered, versioned change to `warehouse.duckdb`. Versions are applied in order, once
 * each, inside a transaction. `statements` returns the SQL to run for this installation
 * (an `Sql` where it binds values).
 */
export interface Migration {
  version: number;
  name: string;
  statements(context: MigrationContext): Array<string | Sql>;
}
