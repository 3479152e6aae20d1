import pg, { type Pool, type PoolClient } from 'pg';
import type { ServiceDb, SqlRunner, SqlValue, Transaction } from './service-db.ts';

/**
 * The shared engine: PostgreSQL at `DATABASE_URL`, for several API replicas and CLIs on any
 * number of machines. A pool of connections; a transaction takes one of them for its whole
 * length. Stores write `?` placeholders (what libsql takes); they become `$1, $2, …` here. No
 * store's SQL has a `?` inside a string literal, so the rewrite is a plain scan.
 *
 * Durability: PostgreSQL's default `synchronous_commit = on`, so COMMIT returns once the WAL
 * is flushed; a certificate answered with 200 is on disk.
 */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** The address without its password, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL (unparseable)';
  }
}

type Queryable = Pick<Pool, 'query'>;

function runnerOver(target: Queryable): SqlRunner {
  return {
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => (await target.query(numbered(sql), [...params])).rows as T[],
    get: async <T>(sql: string, params: readonly SqlValue[] = []) =>
      (await target.query(numbered(sql), [...params])).rows[0] as T | undefined,
    run: async (sql: string, params: readonly SqlValue[] = []) => (await target.query(numbered(sql), [...params])).rowCount ?? 0,
  };
}

export interface PostgresOptions {
  /** Connections per process (default 10). */
  poolSize?: number;
}

export function openPostgresDb(databaseUrl: string, options: PostgresOptions = {}): ServiceDb {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: 'faithscreen',
  });
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return {
    engine: 'postgres',
    location: redactedUrl(databaseUrl),
    ...runnerOver(pool),
    transaction: <T>(work: (tx: Transaction) => Promise<T>): Promise<T> =>
      inTransaction(pool, (client) =>
        work({
          ...runnerOver(client),
          lock: async (name, mode = 'exclusive') => {
            const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
            await client.query(`SELECT ${fn}(hashtext($1))`, [`faithscreen:${name}`]);
          },
          exec: async (sql) => {
            await client.query(sql);
          },
        }),
      ),
    async exec(sql: string): Promise<void> {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}

/** Runs `work` on one pooled connection inside BEGIN … COMMIT, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    // A connection whose rollback failed is not given back to the pool.
    await client.query('ROLLBACK').then(
      () => client.release(),
      (rollbackError: Error) => client.release(rollbackError),
    );
    throw error;
  }
}
