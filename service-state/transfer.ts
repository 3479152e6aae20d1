import { createReadStream } from 'node:fs';
import { access, constants, open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { SERVICE_MIGRATIONS } from './migrations.ts';
import type { ServiceDb, SqlValue } from './service-db.ts';

/**
 * Moving the service state between engines (docs/operations.md, "Moving to PostgreSQL"): every
 * row of every table, as JSON lines, in an order that satisfies the foreign keys. The file holds
 * API key hashes and usage, never a secret (signing secrets and the key-hash secret are files
 * under DATA_DIR/secrets, copied on their own); it is written with mode 0600.
 */
const TABLES = [
  { name: 'accounts', order: 'name' },
  { name: 'api_keys', order: 'key_id' },
  { name: 'quota_windows', order: 'key_id, "window"' },
  { name: 'account_quota_windows', order: 'account, "window"' },
  { name: 'key_usage_days', order: 'key_id, day' },
  { name: 'account_page_usage_days', order: 'account, day' },
  { name: 'signing_keys', order: 'created_at, key_id' },
  { name: 'certificates', order: 'cert_id' },
  { name: 'revocations', order: 'cert_id' },
  { name: 'webhook_subscriptions', order: 'subscription_id' },
  { name: 'webhook_events', order: 'event_id' },
  { name: 'webhook_attempts', order: 'event_id, attempt' },
  // Account users and their unused set-password links (both only as hashes). Sessions and
  // sign-in failures are not carried over: users sign in again after a move.
  { name: 'account_users', order: 'user_id' },
  { name: 'account_invites', order: 'token_hash' },
  { name: 'custom_screens', order: 'screen_id' },
  { name: 'custom_screen_versions', order: 'screen_id, version' },
] as const;

/** Column names as the migrations write them; anything else in a file is refused before it reaches SQL. */
const COLUMN_NAME = /^[a-z][a-z0-9_]*$/;

const FORMAT = 'faithscreen-service-state';
const SCHEMA_VERSION = Math.max(...SERVICE_MIGRATIONS.map((m) => m.version));
const quoted = (column: string) => `"${column}"`;

/** Raised when a file cannot be imported; the message says why and what to do. */
export class TransferError extends Error {
  override name = 'TransferError';
}

export type RowCounts = Record<string, number>;

/** Writes every row of `db` to `file` (created, mode 0600; refuses to overwrite). */
export async function exportState(db: ServiceDb, file: string): Promise<RowCounts> {
  const out = await open(file, 'wx', 0o600);
  const counts: RowCounts = {};
  try {
    await out.write(
      `${JSON.stringify({ format: FORMAT, schema_version: SCHEMA_VERSION, engine: db.engine, exported_at: new Date().toISOString() })}\n`,
    );
    // One transaction: a consistent snapshot even while an API keeps metering.
    await db.transaction(async (tx) => {
      for (const table of TABLES) {
        const rows = await tx.all<Record<string, SqlValue>>(`SELECT * FROM ${table.name} ORDER BY ${table.order}`);
        counts[table.name] = rows.length;
        for (const row of rows) await out.write(`${JSON.stringify({ table: table.name, row })}\n`);
      }
    });
    await out.sync();
  } finally {
    await out.close();
  }
  return counts;
}

/** Loads a file written by exportState into `db`, which must hold no rows yet; all or nothing. */
export async function importState(db: ServiceDb, file: string): Promise<RowCounts> {
  await access(file, constants.R_OK);
  const counts: RowCounts = Object.fromEntries(TABLES.map((t) => [t.name, 0]));
  await db.transaction(async (tx) => {
    for (const table of TABLES) {
      const present = await tx.get<{ n: number | string }>(`SELECT count(*) AS n FROM ${table.name}`);
      if (Number(present?.n) > 0)
        throw new TransferError(`the target already holds ${table.name} rows; import only into an empty service state (a new database)`);
    }
    let header = true;
    let lineNumber = 0;
    // Opened here, right before it is read: lines emitted before iteration starts would be lost.
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      const parsed = JSON.parse(line) as { format?: string; schema_version?: number; table?: string; row?: Record<string, SqlValue> };
      if (header) {
        if (parsed.format !== FORMAT)
          throw new TransferError(`${file} is not a faithscreen service-state export (line 1 names no format '${FORMAT}')`);
        if (parsed.schema_version !== SCHEMA_VERSION)
          throw new TransferError(`${file} has schema version ${parsed.schema_version}; this build reads version ${SCHEMA_VERSION}`);
        header = false;
        continue;
      }
      const table = TABLES.find((t) => t.name === parsed.table);
      if (!table || !parsed.row)
        throw new TransferError(`line ${lineNumber}: unknown table '${parsed.table}'; known: ${TABLES.map((t) => t.name).join(', ')}`);
      // Each row names its own columns (the export wrote every column of the table).
      const columns = Object.keys(parsed.row);
      const unsafe = columns.find((column) => !COLUMN_NAME.test(column));
      if (unsafe !== undefined) throw new TransferError(`line ${lineNumber}: '${unsafe}' is not a column name of ${table.name}`);
      const values = columns.map((column) => parsed.row![column] ?? null);
      await tx.run(`INSERT INTO ${table.name} (${columns.map(quoted).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, values);
      counts[table.name]! += 1;
    }
    if (header) throw new TransferError(`${file} is empty`);
  });
  return counts;
}
