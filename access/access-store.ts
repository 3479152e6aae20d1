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
 * Reads and writes of one key's quota windows, inside the transaction that decides a charge
 * (see QuotaMeter). `lockKey` is what makes the charge atomic across processes.
 */
export interface QuotaTransaction {
  /**
   * Holds the key's quota lock until the transaction ends: every charge and refund of the key,
   * in any process, waits here. libsql's IMMEDIATE transaction already holds the file's write
   * lock; PostgreSQL takes an advisory lock on the key (docs/operations.md, "Quota charges").
   */
  lockKey(keyId: string): Promise<void>;
  window(keyId: string, window: WindowName): Promise<WindowState | undefined>;
  putWindow(keyId: string, window: WindowName, state: WindowState): Promise<void>;
  refund(keyId: string, window: WindowName, startedAtMs: number, units: number): Promise<void>;
}

const WINDOW_SQL = 'SELECT started_at_ms, used FROM quota_windows WHERE key_id = ? AND "window" = ?';
const PUT_WINDOW_SQL =
  'INSERT INTO quota_windows (key_id, "window", started_at_ms, used) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, "window") DO UPDATE ' +
  'SET started_at_ms = excluded.started_at_ms, used = excluded.used';
// Never below zero: a refund of units a window reset already dropped must not go negative.
const REFUND_SQL =
  'UPDATE quota_windows SET used = CASE WHEN used > ? THEN used - ? ELSE 0 END WHERE key_id = ? AND "window" = ? AND started_at_ms = ?';

async function readWindow(sql: SqlRunner, keyId: string, window: WindowName): Promise<WindowState | undefined> {
  const row = await sql.get<{ started_at_ms: number | string; used: number | string }>(WINDOW_SQL, [keyId, window]);
  return row ? { startedAtMs: Number(row.started_at_ms), used: Number(row.used) } : undefined;
}

function quotaTransaction(tx: Transaction): QuotaTransaction {
  return {
    lockKey: (keyId) => tx.lock(`quota:${keyId}`),
    window: (keyId, window) => readWindow(tx, keyId, window),
    putWindow: async (keyId, window, state) => {
      await tx.run(PUT_WINDOW_SQL, [keyId, window, state.startedAtMs, state.used]);
    },
    refund: async (keyId, window, startedAtMs, units) => {
      await tx.run(REFUND_SQL, [units, units, keyId, window, startedAtMs]);
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
  window(keyId: string, window: WindowName): Promise<WindowState | undefined> {
    return readWindow(this.db, keyId, window);
  }

  /** Runs `work` in one transaction over the quota windows (see QuotaTransaction). */
  atomically<T>(work: (quota: QuotaTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(quotaTransaction(tx)));
  }
}
