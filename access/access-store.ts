import type { ServiceDb } from '../service-state/db.ts';
import type { Tier } from './tiers.ts';
import type { WindowName, WindowState } from './quota-windows.ts';

/** Accounts, keys and quota windows in service.db. Plain SQL, no policy: callers decide. */

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

export class AccessStore {
  private readonly statements;

  constructor(readonly db: ServiceDb) {
    this.statements = {
      account: db.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE name = ?`),
      key: db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_id = ?`),
      window: db.prepare('SELECT started_at_ms, used FROM quota_windows WHERE key_id = ? AND window = ?'),
      putWindow: db.prepare(
        'INSERT INTO quota_windows (key_id, window, started_at_ms, used) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, window) DO UPDATE SET started_at_ms = excluded.started_at_ms, used = excluded.used',
      ),
      refund: db.prepare('UPDATE quota_windows SET used = max(0, used - ?) WHERE key_id = ? AND window = ? AND started_at_ms = ?'),
    };
  }

  account(name: string): AccountRecord | undefined {
    const row = this.statements.account.get(name) as AccountRow | undefined;
    return row ? accountFrom(row) : undefined;
  }

  accounts(): AccountRecord[] {
    return (this.db.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY name`).all() as AccountRow[]).map(accountFrom);
  }

  createAccount(name: string, tier: Tier, now: Date): void {
    this.db.prepare('INSERT INTO accounts (name, tier, lapsed_at, created_at) VALUES (?, ?, NULL, ?)').run(name, tier, now.toISOString());
  }

  setLapsed(name: string, lapsedAt: Date | null): void {
    this.db.prepare('UPDATE accounts SET lapsed_at = ? WHERE name = ?').run(lapsedAt ? lapsedAt.toISOString() : null, name);
  }

  key(keyId: string): KeyRecord | undefined {
    const row = this.statements.key.get(keyId) as KeyRow | undefined;
    return row ? keyFrom(row) : undefined;
  }

  keys(account?: string): KeyRecord[] {
    const rows = account
      ? this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account = ? ORDER BY created_at, key_id`).all(account)
      : this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY account, created_at, key_id`).all();
    return (rows as KeyRow[]).map(keyFrom);
  }

  insertKey(key: Omit<KeyRecord, 'revokedAt'>): void {
    this.db
      .prepare(`INSERT INTO api_keys (${KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`)
      .run(
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
      );
  }

  revokeKey(keyId: string, now: Date): boolean {
    return this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL').run(now.toISOString(), keyId).changes > 0;
  }

  window(keyId: string, window: WindowName): WindowState | undefined {
    const row = this.statements.window.get(keyId, window) as { started_at_ms: number; used: number } | undefined;
    return row ? { startedAtMs: Number(row.started_at_ms), used: Number(row.used) } : undefined;
  }

  putWindow(keyId: string, window: WindowName, state: WindowState): void {
    this.statements.putWindow.run(keyId, window, state.startedAtMs, state.used);
  }

  /** Gives units back to a window, only if it is still the window they were taken from. */
  refund(keyId: string, window: WindowName, startedAtMs: number, units: number): void {
    this.statements.refund.run(units, keyId, window, startedAtMs);
  }

  /** Runs `work` in one IMMEDIATE transaction: the write lock is taken before the first read. */
  atomically<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }
}
