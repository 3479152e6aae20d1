import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import { SERVICE_MIGRATIONS } from './migrations.ts';
import { type ServiceMigration } from './migrations/migration.ts';

/**
 * The service's own transactional state: accounts, API keys (hashed), quota usage,
 * certificates, signing-key metadata and revocations. It lives in `DATA_DIR/service.db`,
 * a SQLite file (through libsql), not in the warehouse: it is small, written on every
 * metered request, and shared by the API and the CLI, which may run at the same time.
 * SQLite's file locks make that safe, and its synchronous API makes a check-and-consume
 * one atomic transaction with no await in the middle.
 *
 * Durability: WAL with `synchronous=FULL`, so a committed transaction survives a crash of
 * the process and of the machine; a certificate answered with 200 is on disk.
 */
export type ServiceDb = Database.Database;

export function serviceDbPath(dataDir: string): string {
  return path.join(dataDir, 'service.db');
}

/** Opens (creating if needed) the service database and applies pending migrations. */
export function openServiceDb(dataDir: string, migrations: readonly ServiceMigration[] = SERVICE_MIGRATIONS): ServiceDb {
  mkdirSync(dataDir, { recursive: true });
  const file = serviceDbPath(dataDir);
  const created = !existsSync(file);
  const db = new Database(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA foreign_keys = ON');
  if (created) chmodSync(file, 0o600); // key hashes and usage are nobody else's business
  migrate(db, migrations);
  return db;
}

function migrate(db: ServiceDb, migrations: readonly ServiceMigration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((row) => Number(row.version)),
  );
  const pending = [...migrations].filter((m) => !applied.has(m.version)).sort((a, b) => a.version - b.version);
  for (const migration of pending) {
    // IMMEDIATE: two processes starting together must not both apply the same migration.
    db.transaction(() => {
      const again = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(migration.version);
      if (again) return;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }).immediate();
  }
}

/** A row with only its named columns (libsql adds a `_metadata` property to row objects). */
export function pickRow<T extends object>(row: unknown, columns: ReadonlyArray<keyof T>): T | undefined {
  if (row === undefined || row === null) return undefined;
  const source = row as Record<string, unknown>;
  return Object.fromEntries(columns.map((column) => [column, source[column as string]])) as T;
}
