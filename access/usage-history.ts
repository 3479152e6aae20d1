import type { ServiceDb } from '../service-state/db.ts';
import { DAY_MS } from './tiers.ts';

/**
 * Units each key spent per UTC day, for the account page's 30-day chart and "last used"
 * (docs/access.md, "Account pages"). History only: limits are decided on the quota windows.
 */

/** What a process adds to one key's day: spent units (negative for refunds) and its latest use. */
export interface UsageDelta {
  keyId: string;
  day: string;
  units: number;
  /** Latest metered call in this delta, 0 when it holds only refunds. */
  lastUsedAtMs: number;
}

export interface UsageDay {
  keyId: string;
  day: string;
  units: number;
}

/** The UTC calendar day (YYYY-MM-DD) of an instant. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The usage id under which an account's own pages spend (a portfolio screened on
 * /account/portfolio): no key is involved, so the meter tallies the units under this id and they
 * are written to the account's page history, which the account page shows beside its keys.
 * Key ids (`key_` and 12 letters or digits) never hold a colon, so the two never meet.
 */
export const ACCOUNT_PAGES_USAGE = 'account-pages';
const PAGES_PREFIX = `${ACCOUNT_PAGES_USAGE}:`;
export const accountPagesUsageId = (account: string): string => `${PAGES_PREFIX}${account}`;

const KEY_HISTORY = { table: 'key_usage_days', column: 'key_id' } as const;
const PAGE_HISTORY = { table: 'account_page_usage_days', column: 'account' } as const;

/** The table and id column a usage id writes to: a key's history, or its account's page history. */
function rowOf(usageId: string): { table: string; column: string; id: string } {
  return usageId.startsWith(PAGES_PREFIX) ? { ...PAGE_HISTORY, id: usageId.slice(PAGES_PREFIX.length) } : { ...KEY_HISTORY, id: usageId };
}

// "Last used" only moves forward: deltas of several processes arrive in any order.
const addSql = (table: string, column: string) => `INSERT INTO ${table} (${column}, day, units, last_used_at_ms) VALUES (?, ?, ?, ?)
ON CONFLICT (${column}, day) DO UPDATE SET
  units = ${table}.units + excluded.units,
  last_used_at_ms = CASE WHEN excluded.last_used_at_ms > ${table}.last_used_at_ms THEN excluded.last_used_at_ms ELSE ${table}.last_used_at_ms END`;
// Never below zero: a refund whose charge another process has not written yet must not go negative.
const refundSql = (table: string, column: string) =>
  `UPDATE ${table} SET units = CASE WHEN units + ? > 0 THEN units + ? ELSE 0 END WHERE ${column} = ? AND day = ?`;

/**
 * Days of usage history kept (docs/access.md, "Account pages"): the page charts 30, and 400 cover
 * a year's comparison and an invoice query. Each key's newest day is kept whatever its age, so
 * "last used" survives.
 */
export const USAGE_RETENTION_DAYS = 400;

export class UsageHistory {
  /** The newest day a trim was done for: the history is trimmed once per day a process writes. */
  private trimmedFor = '';

  constructor(private readonly db: ServiceDb) {}

  /** Removes days before `day` (YYYY-MM-DD) except each key's (and each account's pages') newest one; returns how many rows went. */
  async trimBefore(day: string): Promise<number> {
    let removed = 0;
    for (const { table, column } of [KEY_HISTORY, PAGE_HISTORY])
      removed += await this.db.run(
        `DELETE FROM ${table} WHERE day < ?
         AND (${column}, day) NOT IN (SELECT ${column}, MAX(day) FROM ${table} GROUP BY ${column})`,
        [day],
      );
    return removed;
  }

  /** Adds `deltas`, then, the first time a newer day is written, trims what is older than the retention. */
  async addAndTrim(deltas: readonly UsageDelta[]): Promise<void> {
    await this.add(deltas);
    const newest = deltas.reduce((max, d) => (d.day > max ? d.day : max), '');
    if (newest <= this.trimmedFor) return;
    this.trimmedFor = newest;
    await this.trimBefore(utcDay(Date.parse(`${newest}T00:00:00Z`) - USAGE_RETENTION_DAYS * DAY_MS));
  }

  /** Adds every delta in one transaction. A delta of refunds only never creates a row. */
  async add(deltas: readonly UsageDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const d of deltas) {
        const { table, column, id } = rowOf(d.keyId);
        if (d.lastUsedAtMs > 0) await tx.run(addSql(table, column), [id, d.day, Math.max(0, d.units), d.lastUsedAtMs]);
        if (d.units < 0) await tx.run(refundSql(table, column), [d.units, d.units, id, d.day]);
      }
    });
  }

  /** Every day from `fromDay` (inclusive) of every key of `account`, oldest first. */
  async daysOf(account: string, fromDay: string): Promise<UsageDay[]> {
    const rows = await this.db.all<{ key_id: string; day: string; units: number | string }>(
      `SELECT u.key_id, u.day, u.units FROM key_usage_days u JOIN api_keys k ON k.key_id = u.key_id
       WHERE k.account = ? AND u.day >= ? ORDER BY u.key_id, u.day`,
      [account, fromDay],
    );
    return rows.map((row) => ({ keyId: row.key_id, day: row.day, units: Number(row.units) }));
  }

  /** When each key of `account` was last charged for a call, by key id (keys never used are absent). */
  async lastUsedOf(account: string): Promise<Map<string, number>> {
    const rows = await this.db.all<{ key_id: string; last_used_at_ms: number | string }>(
      `SELECT u.key_id, MAX(u.last_used_at_ms) AS last_used_at_ms FROM key_usage_days u JOIN api_keys k ON k.key_id = u.key_id
       WHERE k.account = ? GROUP BY u.key_id`,
      [account],
    );
    return new Map(rows.map((row) => [row.key_id, Number(row.last_used_at_ms)]));
  }

  /** Every day from `fromDay` (inclusive) the pages of `account` spent on, oldest first. */
  async pageDaysOf(account: string, fromDay: string): Promise<Array<{ day: string; units: number }>> {
    const rows = await this.db.all<{ day: string; units: number | string }>(
      'SELECT day, units FROM account_page_usage_days WHERE account = ? AND day >= ? ORDER BY day',
      [account, fromDay],
    );
    return rows.map((row) => ({ day: row.day, units: Number(row.units) }));
  }

  /** When the pages of `account` were last charged for, in ms; undefined when never. */
  async pageLastUsedOf(account: string): Promise<number | undefined> {
    const row = await this.db.get<{ last_used_at_ms: number | string | null }>(
      'SELECT MAX(last_used_at_ms) AS last_used_at_ms FROM account_page_usage_days WHERE account = ?',
      [account],
    );
    return row?.last_used_at_ms === null || row?.last_used_at_ms === undefined ? undefined : Number(row.last_used_at_ms);
  }
}

/** Deltas gathered in memory between two writes (the meter writes them each second and at close). */
export class UsageTally {
  /** By key, then by UTC day; on the charge path, so no object or string is built for a day already tallied. */
  private deltas = new Map<string, Map<string, UsageDelta>>();
  private dayStartMs = 0;
  private dayEndMs = 0;
  private day = '';

  /** Units spent (or, negative, given back) by a call made at `atMs`; `used` says whether it counts as a use. */
  add(keyId: string, atMs: number, units: number, used: boolean): void {
    if (atMs < this.dayStartMs || atMs >= this.dayEndMs) {
      this.dayStartMs = atMs - (((atMs % DAY_MS) + DAY_MS) % DAY_MS);
      this.dayEndMs = this.dayStartMs + DAY_MS;
      this.day = utcDay(atMs);
    }
    this.merge(keyId, this.day, units, used ? atMs : 0);
  }

  /** Takes every delta gathered so far, leaving the tally empty. */
  take(): UsageDelta[] {
    const taken = [...this.deltas.values()].flatMap((days) => [...days.values()]).filter((d) => d.units !== 0 || d.lastUsedAtMs > 0);
    this.deltas = new Map();
    return taken;
  }

  /** Puts back deltas whose write failed, so the next write carries them. */
  restore(deltas: readonly UsageDelta[]): void {
    for (const d of deltas) this.merge(d.keyId, d.day, d.units, d.lastUsedAtMs);
  }

  private merge(keyId: string, day: string, units: number, lastUsedAtMs: number): void {
    let days = this.deltas.get(keyId);
    if (!days) this.deltas.set(keyId, (days = new Map()));
    let delta = days.get(day);
    if (!delta) days.set(day, (delta = { keyId, day, units: 0, lastUsedAtMs: 0 }));
    delta.units += units;
    if (lastUsedAtMs > delta.lastUsedAtMs) delta.lastUsedAtMs = lastUsedAtMs;
  }
}
