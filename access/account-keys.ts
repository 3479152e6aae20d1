import type { AccessStore, AccountRecord, KeyRecord } from './access-store.ts';
import { createKey } from './administration.ts';
import { usageOf } from './meter.ts';
import type { WindowReport } from './quota-windows.ts';
import { DAY_MS } from './tiers.ts';
import { UsageHistory, utcDay } from './usage-history.ts';

/**
 * What an account's own users see and do with their keys on the account pages
 * (docs/access.md, "Account pages"): every read and write is scoped to one account, so a key of
 * another account is simply not found. Operators' actions stay in administration.ts.
 */

/** Days in the usage chart, today included. */
export const USAGE_CHART_DAYS = 30;

/**
 * Live keys an account may hold when it creates them itself. Limits are per key
 * (docs/access.md), so each extra key adds the tier's daily units; the cap keeps self-service
 * rotation possible without multiplying the tier. Operators may issue more with the CLI.
 */
export const SELF_SERVICE_LIVE_KEYS = 5;

export interface KeyUsage {
  key: KeyRecord;
  /** Current windows (daily, and monthly for partner quotas); empty for a revoked key. */
  windows: WindowReport[];
  /** Last metered call, ISO; null when never used. */
  lastUsedAt: string | null;
  /** Units spent per UTC day, oldest first, exactly USAGE_CHART_DAYS entries ending today. */
  days: Array<{ day: string; units: number }>;
}

export interface AccountKeys {
  account: AccountRecord;
  keys: KeyUsage[];
  /** What the account's own pages spent of its allowance (a portfolio screened while signed in), charted like a key's. */
  pages: Omit<KeyUsage, 'key' | 'windows'>;
}

/** The UTC days of the chart, oldest first, ending with `nowMs`'s day. */
export function chartDays(nowMs: number): string[] {
  return Array.from({ length: USAGE_CHART_DAYS }, (_, i) => utcDay(nowMs - (USAGE_CHART_DAYS - 1 - i) * DAY_MS));
}

/** The account's keys (newest first) with their usage; undefined when there is no such account. */
export async function accountKeys(store: AccessStore, accountName: string, nowMs: number): Promise<AccountKeys | undefined> {
  const account = await store.account(accountName);
  if (!account) return undefined;
  const history = new UsageHistory(store.db);
  const days = chartDays(nowMs);
  const perDay = new Map<string, number>();
  for (const row of await history.daysOf(account.name, days[0]!)) perDay.set(`${row.keyId} ${row.day}`, row.units);
  const lastUsed = await history.lastUsedOf(account.name);
  const keys: KeyUsage[] = [];
  for (const key of (await store.keys(account.name)).reverse()) {
    const used = lastUsed.get(key.keyId);
    keys.push({
      key,
      windows: key.revokedAt === null ? await usageOf(store, key, account.tier, nowMs) : [],
      lastUsedAt: used === undefined ? null : new Date(used).toISOString(),
      days: days.map((day) => ({ day, units: perDay.get(`${key.keyId} ${day}`) ?? 0 })),
    });
  }
  const pageDays = new Map((await history.pageDaysOf(account.name, days[0]!)).map((row) => [row.day, row.units]));
  const pagesUsed = await history.pageLastUsedOf(account.name);
  const pages = {
    lastUsedAt: pagesUsed === undefined ? null : new Date(pagesUsed).toISOString(),
    days: days.map((day) => ({ day, units: pageDays.get(day) ?? 0 })),
  };
  return { account, keys, pages };
}

/** Why an account cannot create a key itself: words for the page, never an operator's CLI advice. */
export type CreateRefusal = 'free_tier' | 'lapsed' | 'partner_terms' | 'too_many_keys';

export type CreateOutcome = { ok: true; key: string; keyId: string } | { ok: false; reason: CreateRefusal };

/**
 * A new key for the account with its tier's terms (unrestricted scopes, the tier's daily
 * units). Partner keys carry contract terms only administrators set, so partners ask their
 * operator; free and lapsed accounts have no API access.
 */
export async function createOwnKey(store: AccessStore, hashSecret: Buffer, account: AccountRecord, now: Date): Promise<CreateOutcome> {
  if (account.tier === 'free') return { ok: false, reason: 'free_tier' };
  if (account.lapsedAt !== null) return { ok: false, reason: 'lapsed' };
  if (account.tier === 'partner') return { ok: false, reason: 'partner_terms' };
  const live = (await store.keys(account.name)).filter((k) => k.revokedAt === null).length;
  if (live >= SELF_SERVICE_LIVE_KEYS) return { ok: false, reason: 'too_many_keys' };
  const created = await createKey(store, hashSecret, { account: account.name }, now);
  return { ok: true, key: created.key, keyId: created.key_id };
}

export type RevokeOutcome = 'revoked' | 'already_revoked' | 'not_found';

/** Revokes one of the account's own keys; a key of any other account is `not_found`, exactly like a key that does not exist. */
export async function revokeOwnKey(store: AccessStore, accountName: string, keyId: string, now: Date): Promise<RevokeOutcome> {
  const key = await store.key(keyId);
  if (!key || key.account !== accountName) return 'not_found';
  return (await store.revokeKey(keyId, now)) ? 'revoked' : 'already_revoked';
}

/** One of the account's own keys, or undefined (also for another account's key). */
export async function ownKey(store: AccessStore, accountName: string, keyId: string): Promise<KeyRecord | undefined> {
  const key = await store.key(keyId);
  return key && key.account === accountName ? key : undefined;
}
