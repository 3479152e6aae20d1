import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { withDuckDB } from './duckdb.ts';
import { catalogPath, lakeRoot } from './lake-paths.ts';
import { MIGRATIONS, type Migration, type MigrationContext } from './migrations/index.ts';
import { rawSql, readSql, runSql, sql } from './sql.ts';

export interface CatalogStatus {
  path: string;
  /** Highest migration version applied before this call. */
  fromVersion: number;
  /** Highest migration version applied after this call. */
  toVersion: number;
  applied: string[];
}

const VERSION_TABLE = 'schema_migrations';

async function appliedVersion(connection: DuckDBConnection): Promise<number> {
  const exists = await readSql(connection, sql`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = ${VERSION_TABLE}`);
  if (Number(exists.getRowObjects()[0]?.n ?? 0) === 0) return 0;
  const result = await connection.runAndReadAll(`SELECT coalesce(max(version), 0) AS v FROM ${VERSION_TABLE}`);
  return Number(result.getRowObjects()[0]?.v ?? 0);
}

async function applyMigration(connection: DuckDBConnection, migration: Migration, context: MigrationContext): Promise<void> {
  await connection.run('BEGIN TRANSACTION');
  try {
    for (const statement of migration.statements(context)) {
      await (typeof statement === 'string' ? connection.run(statement) : runSql(connection, statement));
    }
    await runSql(connection, sql`INSERT INTO ${rawSql(VERSION_TABLE)} VALUES (${migration.version}, ${migration.name}, current_timestamp)`);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK');
    throw new Error(`catalog migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`);
  }
}

/** Latest migration version this build knows. */
export function latestCatalogVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}

/**
 * Creates `DATA_DIR/warehouse.duckdb` if needed and applies pending migrations, then closes
 * it: no process keeps the catalog open for writing, so researchers can always open it.
 * When it is already current, it is only opened read-only (safe while readers hold it).
 */
export async function migrateCatalog(dataDir: string, migrations: readonly Migration[] = MIGRATIONS): Promise<CatalogStatus> {
  const file = catalogPath(dataDir);
  const context: MigrationContext = { dataDir, lakeRoot: lakeRoot(dataDir) };
  await mkdir(context.lakeRoot, { recursive: true });
  const target = latestCatalogVersion(migrations);
  if (existsSync(file)) {
    const current = await withDuckDB(file, { readOnly: true }, appliedVersion);
    if (current >= target) return { path: file, fromVersion: current, toVersion: current, applied: [] };
  }
  return withDuckDB(file, {}, async (connection) => {
    await connection.run(
      `CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)`,
    );
    const fromVersion = await appliedVersion(connection);
    const pending = [...migrations].filter((m) => m.version > fromVersion).sort((a, b) => a.version - b.version);
    for (const migration of pending) await applyMigration(connection, migration, context);
    await connection.run('CHECKPOINT');
    return { path: file, fromVersion, toVersion: latestCatalogVersion(migrations), applied: pending.map((m) => `${m.version}-${m.name}`) };
  });
}
