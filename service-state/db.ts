import { openLibsqlDb } from './libsql-db.ts';
import { SERVICE_MIGRATIONS } from './migrations.ts';
import { type ServiceMigration } from './migrations/migration.ts';
import type { ServiceDb } from './service-db.ts';

export type { ServiceDb, ServiceEngine, SqlRunner, Transaction } from './service-db.ts';
export { serviceDbPath } from './libsql-db.ts';

export interface ServiceStateOptions {
  dataDir: string;
  /** DATABASE_URL: PostgreSQL holds the state when set; otherwise DATA_DIR/service.db. */
  databaseUrl?: string | undefined;
  /**
   * libsql only: `NORMAL` for connections that commit on every metered request (a process
   * crash loses nothing, a power cut may lose the last commits; docs/access.md). Default FULL.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /** PostgreSQL only: connections in this process's pool. */
  poolSize?: number;
}

/** Opens the service state (creating it if needed) and applies pending migrations. */
export async function openServiceDb(
  options: ServiceStateOptions,
  migrations: readonly ServiceMigration[] = SERVICE_MIGRATIONS,
): Promise<ServiceDb> {
  // Loaded only when asked for: the embedded default needs no PostgreSQL client at all.
  const db = options.databaseUrl
    ? (await import('./postgres-db.ts')).openPostgresDb(
        options.databaseUrl,
        options.poolSize !== undefined ? { poolSize: options.poolSize } : {},
      )
    : openLibsqlDb(options.dataDir, options.synchronous);
  try {
    await migrate(db, migrations);
  } catch (error) {
    await db.close();
    if (db.engine === 'postgres')
      throw new Error(`the service state at ${db.location} could not be opened: ${(error as Error).message}`, { cause: error });
    throw error;
  }
  return db;
}

async function migrate(db: ServiceDb, migrations: readonly ServiceMigration[]): Promise<void> {
  await db.transaction(async (tx) => {
    // Two processes starting together must not both apply the same migration.
    await tx.lock('migrations');
    await tx.run(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const applied = new Set((await tx.all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => Number(row.version)));
    const pending = [...migrations].filter((m) => !applied.has(m.version)).sort((a, b) => a.version - b.version);
    for (const migration of pending) {
      await tx.exec(migration[db.engine]);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
    }
  });
}

/** A row with only its named columns. */
export function pickRow<T extends object>(row: unknown, columns: ReadonlyArray<keyof T>): T | undefined {
  if (row === undefined || row === null) return undefined;
  const source = row as Record<string, unknown>;
  return Object.fromEntries(columns.map((column) => [column, source[column as string]])) as T;
}
