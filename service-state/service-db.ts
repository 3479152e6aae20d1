/**
 * The service's transactional state (accounts, hashed API keys, quota usage, certificates,
 * signing-key metadata, revocations, webhook subscriptions and deliveries) behind one small interface with two engines:
 *
 * - the embedded default, a SQLite file `DATA_DIR/service.db` through libsql, shared by the
 *   processes of one machine (service-state/libsql-db.ts);
 * - PostgreSQL when `DATABASE_URL` is set, shared by API replicas and CLIs on any machine
 *   (service-state/postgres-db.ts).
 *
 * Stores write their SQL once, with `?` placeholders and what both engines accept; the schema
 * differs per engine only where the engines do (service-state/migrations/). docs/operations.md
 * says which engine to choose and how to move from one to the other.
 */
export type SqlValue = string | number | null;

export type ServiceEngine = 'libsql' | 'postgres';

/** Runs statements; rows come back as plain objects keyed by column name. */
export interface SqlRunner {
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a write; resolves with the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

/** A statement runner inside one open transaction. */
export interface Transaction extends SqlRunner {
  /**
   * Holds the named lock until the transaction ends, against every process on the same state.
   * `shared` holders run together and exclude `exclusive` ones. On libsql the transaction
   * already holds the file's write lock, so this costs nothing there; on PostgreSQL it is a
   * transaction-level advisory lock.
   */
  lock(name: string, mode?: 'shared' | 'exclusive'): Promise<void>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface ServiceDb extends SqlRunner {
  readonly engine: ServiceEngine;
  /** Where the state lives, for messages (never a password). */
  readonly location: string;
  /**
   * Runs `work` in one transaction that is committed when it resolves and rolled back when it
   * throws. Statements inside must go through `tx`, never through this object.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations, operators' tests). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}
