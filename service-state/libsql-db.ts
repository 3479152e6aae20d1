import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import type { ServiceDb, SqlRunner, SqlValue, Transaction } from './service-db.ts';

/**
 * The embedded engine: a SQLite file through libsql. SQLite's file locks make it safe for the
 * API and the CLI on one machine at once; a transaction is `BEGIN IMMEDIATE`, so it holds the
 * write lock from its first statement and nothing of another process interleaves.
 *
 * libsql's API is synchronous while a store's transaction is async code. So that nothing slips
 * into an open transaction, and so that no connection of this process waits for SQLite's lock
 * (a synchronous wait that would stop the event loop, and with it the transaction holding the
 * lock), every connection of this process to one file shares one gate: while a transaction is
 * open, the others' statements queue behind it.
 *
 * Durability: WAL with `synchronous=FULL`, so a committed transaction survives a crash of the
 * process and of the machine; a certificate answered with 200 is on disk.
 */
export function serviceDbPath(dataDir: string): string {
  return path.join(dataDir, 'service.db');
}

type Row = Record<string, unknown>;

function plain<T>(row: unknown): T {
  const copy = { ...(row as Row) };
  delete copy._metadata; // libsql adds timing metadata to every row object
  return copy as T;
}

/**
 * Statements kept prepared per connection: preparing costs more than running a quota or key
 * lookup (docs/benchmarks/figures-behind-code.md).
 */
const PREPARED_LIMIT = 256;

function runnerOver(db: Database.Database): SqlRunner {
  const prepared = new Map<string, Database.Statement>();
  const statement = (sql: string) => {
    let found = prepared.get(sql);
    if (found === undefined) {
      if (prepared.size >= PREPARED_LIMIT) prepared.clear(); // SQL built per call (IN lists) must not grow it
      prepared.set(sql, (found = db.prepare(sql)));
    }
    return found;
  };
  return {
    all: async <T>(sql: string, params: readonly SqlValue[] = []) =>
      statement(sql)
        .all(...params)
        .map((row) => plain<T>(row)),
    get: async <T>(sql: string, params: readonly SqlValue[] = []) => {
      const row = statement(sql).get(...params);
      return row === undefined ? undefined : plain<T>(row);
    },
    run: async (sql: string, params: readonly SqlValue[] = []) => statement(sql).run(...params).changes,
  };
}

/** One open transaction at a time per file in this process; everything else waits its turn. */
class Gate {
  private tail: Promise<void> = Promise.resolve();
  open = false;

  async hold<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  }
}

const gates = new Map<string, Gate>();

/** How long an open waits for another process to let go of a new file's lock. */
const OPEN_LOCK_WAIT_MS = 5_000;

/**
 * Puts the file in WAL mode. Switching a new file needs it exclusively, and SQLite neither waits
 * for that lock (its busy timeout does not apply where two connections would deadlock) nor
 * always says it could not take it (the pragma may just answer the old mode). So a second
 * process opening the file at that moment (a worker and an API starting together on a fresh
 * DATA_DIR) tries again until the file answers `wal`: a synchronous wait, at open only.
 */
function useWal(db: Database.Database): void {
  const deadline = Date.now() + OPEN_LOCK_WAIT_MS;
  for (;;) {
    let mode: unknown;
    try {
      mode = (db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode?: string } | undefined)?.journal_mode;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
    }
    if (mode === 'wal') return;
    if (Date.now() > deadline) throw new Error(`service state ${db.name}: could not switch to WAL mode (journal mode ${String(mode)})`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}

export function openLibsqlDb(dataDir: string, synchronous: 'FULL' | 'NORMAL' = 'FULL'): ServiceDb {
  mkdirSync(dataDir, { recursive: true });
  const file = serviceDbPath(dataDir);
  const created = !existsSync(file);
  const db = new Database(file);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    useWal(db);
  } catch (error) {
    db.close();
    throw error;
  }
  db.exec(`PRAGMA synchronous = ${synchronous}`);
  db.exec('PRAGMA foreign_keys = ON');
  if (created) chmodSync(file, 0o600); // key hashes and usage are nobody else's business
  const direct = runnerOver(db);
  let gate = gates.get(file);
  if (gate === undefined) gates.set(file, (gate = new Gate()));
  // Outside a transaction a statement runs at once; while one is open it waits for the end.
  const gated =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A) =>
      gate.open ? gate.hold(() => call(...args)) : call(...args);
  const tx: Transaction = {
    ...direct,
    lock: async () => {},
    exec: async (sql) => {
      db.exec(sql);
    },
  };
  return {
    engine: 'libsql',
    location: file,
    all: gated(direct.all) as SqlRunner['all'],
    get: gated(direct.get) as SqlRunner['get'],
    run: gated(direct.run),
    transaction: <T>(work: (tx: Transaction) => Promise<T>) =>
      gate.hold(async () => {
        db.exec('BEGIN IMMEDIATE');
        gate.open = true;
        try {
          const result = await work(tx);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        } finally {
          gate.open = false;
        }
      }),
    exec: gated(async (sql: string) => {
      db.exec(sql);
    }),
    close: async () => {
      await gate.hold(async () => db.close());
    },
  };
}
