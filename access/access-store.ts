import type { ServiceDb, SqlRunner, Transaction } from '../service-state/db.ts';
import type { Tier } from './tiers.ts';
import type { WindowName, WindowState } from './quota-windows.ts';

/** Accounts, keys and quota windows in the service state (service-state/). Plain SQL, no policy: callers decide. */

export interface AccountRecord {
  name: string;
  tier: Tier;
  lapsedAt: string | null;
  createdAt: string;
}

export interface KeyScopes {
  allowedMarkets: string[] | null;
  allowedEndpoints: string[] | null;
  allowedFrameworks: string[] | null;
}

export interface KeyRecord extends KeyScopes {
  keyId: string;
  account: string;
  secretHash: string;
  dailyLimit: number | null;
  monthlyQuota: number | null;
  costWeights: Record<string, number> | null;
  createdAt: string;
  revokedAt: string | null;
}

interface AccountRow {
  name: string;
  tier: Tier;
  lapsed_at: string | null;
  created_at: string;
}

interface KeyRow {
  key_id: string;
  account: string;
  secret_hash: string;
  allowed_markets: string | null;
  allowed_endpoints: string | null;
  allowed_frameworks: string | null;
  daily_limit: number | null;
  monthly_quota: number | null;
  cost_weights: string | null;
  created_at: string;
  revoked_at: string | null;
}

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function accountFrom(row: AccountRow): AccountRecord {
  return { name: row.name, tier: row.tier, lapsedAt: row.lapsed_at, createdAt: row.created_at };
}

function keyFrom(row: KeyRow): KeyRecord {
  return {
    keyId: row.key_id,
    account: row.account,
    secretHash: row.secret_hash,
    allowedMarkets: json(row.allowed_markets),
    allowedEndpoints: json(row.allowed_endpoints),
    allowedFrameworks: json(row.allowed_frameworks),
    dailyLimit: numberOrNull(row.daily_limit),
    monthlyQuota: numberOrNull(row.monthly_quota),
    costWeights: json(row.cost_weights),
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

const ACCOUNT_COLUMNS = 'name, tier, lapsed_at, created_at';
const KEY_COLUMNS =
  'key_id, account, secret_hash, allowed_markets, allowed_endpoints, allowed_frameworks, daily_limit, monthly_quota, cost_weights, created_at, revoked_at';

/**
 * What a quota window meters: a key (`key_…`, partner keys) or a whole account (`account:NAME`,
 * the self-serve tiers, whose keys share one allowance). Key ids never contain a colon.
 */
export type MeterId = string;

export const accountMeterId = (account: string): MeterId => `account:${account}`;

/** The table, key column and id of a meter's windows. */
function windowsOf(meter: MeterId): { table: string; column: string; id: string } {
  return meter.startsWith('account:')
    ? { table: 'account_quota_windows', column: 'account', id: meter.slice('account:'.length) }
    : { table: 'quota_windows', column: 'key_id', id: meter };
}

/**
 * Reads and writes of one meter's quota windows, inside the transaction that decides a charge
 * (see QuotaMeter). `lockMeter` is what makes the charge atomic across processes.
 */
export interface QuotaTransaction {
  /**
   * Holds the meter's quota lock until the transaction ends: every charge and refund of the key
   * (or account), in any process, waits here. libsql's IMMEDIATE transaction already holds the
   * file's write lock; PostgreSQL takes an advisory lock (docs/operations.md, "Quota charges").
   */
  lockMeter(meter: MeterId): Promise<void>;
  window(meter: MeterId, window: WindowName): Promise<WindowState | undefined>;
  putWindow(meter: MeterId, window: WindowName, state: WindowState): Promise<void>;
  refund(meter: MeterId, window: WindowName, startedAtMs: number, units: number): Promise<void>;
}

async function readWindow(sql: SqlRunner, meter: MeterId, window: WindowName): Promise<WindowState | undefined> {
  const { table, column, id } = windowsOf(meter);
  const row = await sql.get<{ started_at_ms: number | string; used: number | string }>(
    `SELECT started_at_ms, used FROM ${table} WHERE ${column} = ? AND "window" = ?`,
    [id, window],
  );
  return row ? { startedAtMs: Number(row.started_at_ms), used: Number(row.used) } : undefined;
}

function quotaTransaction(tx: Transaction): QuotaTransaction {
  return {
    // The lock name keeps the key's old form, so an older process's charges still exclude these.
    lockMeter: (meter) => tx.lock(`quota:${meter}`),
    window: (meter, window) => readWindow(tx, meter, window),
    putWindow: async (meter, window, state) => {
      const { table, column, id } = windowsOf(meter);
      await tx.run(
        `INSERT INTO ${table} (${column}, "window", started_at_ms, used) VALUES (?, ?, ?, ?) ON CONFLICT (${column}, "window") DO UPDATE ` +
          'SET started_at_ms = excluded.started_at_ms, used = excluded.used',
        [id, window, state.startedAtMs, state.used],
      );
    },
    refund: async (meter, window, startedAtMs, units) => {
      const { table, column, id } = windowsOf(meter);
      // Never below zero: a refund of units a window reset already dropped must not go negative.
      await tx.run(
        `UPDATE ${table} SET used = CASE WHEN used > ? THEN used - ? ELSE 0 END WHERE ${column} = ? AND "window" = ? AND started_at_ms = ?`,
        [units, units, id, window, startedAtMs],
      );
    },
  };
}

export class AccessStore {
  constructor(readonly db: ServiceDb) {}

  async account(name: string): Promise<AccountRecord | undefined> {
    const row = await this.db.get<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE name = ?`, [name]);
    return row ? accountFrom(row) : undefined;
  }

  async accounts(): Promise<AccountRecord[]> {
    return (await this.db.all<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY name`)).map(accountFrom);
  }

  async createAccount(name: string, tier: Tier, now: Date): Promise<void> {
    await this.db.run('INSERT INTO accounts (name, tier, lapsed_at, created_at) VALUES (?, ?, NULL, ?)', [name, tier, now.toISOString()]);
  }

  async setTier(name: string, tier: Tier): Promise<void> {
    await this.db.run('UPDATE accounts SET tier = ? WHERE name = ?', [tier, name]);
  }

  async setLapsed(name: string, lapsedAt: Date | null): Promise<void> {
    await this.db.run('UPDATE accounts SET lapsed_at = ? WHERE name = ?', [lapsedAt ? lapsedAt.toISOString() : null, name]);
  }

  async key(keyId: string): Promise<KeyRecord | undefined> {
    const row = await this.db.get<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_id = ?`, [keyId]);
    return row ? keyFrom(row) : undefined;
  }

  async keys(account?: string): Promise<KeyRecord[]> {
    const rows = account
      ? await this.db.all<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account = ? ORDER BY created_at, key_id`, [account])
      : await this.db.all<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY account, created_at, key_id`);
    return rows.map(keyFrom);
  }

  async insertKey(key: Omit<KeyRecord, 'revokedAt'>): Promise<void> {
    await this.db.run(`INSERT INTO api_keys (${KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`, [
      key.keyId,
      key.account,
      key.secretHash,
      key.allowedMarkets && JSON.stringify(key.allowedMarkets),
      key.allowedEndpoints && JSON.stringify(key.allowedEndpoints),
      key.allowedFrameworks && JSON.stringify(key.allowedFrameworks),
      key.dailyLimit,
      key.monthlyQuota,
      key.costWeights && JSON.stringify(key.costWeights),
      key.createdAt,
    ]);
  }

  async revokeKey(keyId: string, now: Date): Promise<boolean> {
    return (
      (await this.db.run('UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL', [now.toISOString(), keyId])) > 0
    );
  }

  /** A window as committed (outside any charge: for reports and tests). */
  window(meter: MeterId, window: WindowName): Promise<WindowState | undefined> {
    return readWindow(this.db, meter, window);
  }

  /** Runs `work` in one transaction over the quota windows (see QuotaTransaction). */
  atomically<T>(work: (quota: QuotaTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(quotaTransaction(tx)));
  }
}
