import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accountKeys,
  chartDays,
  createOwnKey,
  ownKey,
  revokeOwnKey,
  SELF_SERVICE_LIVE_KEYS,
  USAGE_CHART_DAYS,
} from '../../access/account-keys.ts';
import { createAccount, createKey, lapseAccount } from '../../access/administration.ts';
import type { AccountRecord } from '../../access/access-store.ts';
import { AccessStore } from '../../access/access-store.ts';
import { QuotaMeter } from '../../access/meter.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import { openServiceDb } from '../../service-state/db.ts';
import { DAY_MS, type Tier } from '../../access/tiers.ts';
import { accountPagesUsageId, USAGE_RETENTION_DAYS, UsageHistory } from '../../access/usage-history.ts';
import { apiKeyMatches } from '../../access/key-hashing.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const T0 = Date.parse('2026-11-21T10:00:00Z');

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let access: AccessSetup;

beforeEach(async () => {
  temp = await makeTempDir();
  access = await openAccess({ ...(await testServiceState(temp.dir)), upgradeUrl: 'https://x.test/upgrade' });
});
afterEach(async () => {
  await access.close();
  await temp.cleanup();
});

let accounts = 0;
async function account(tier: Tier): Promise<AccountRecord> {
  return createAccount(access.store, `acct-${tier}-${++accounts}`, tier);
}

async function proKey(name: string): Promise<string> {
  return (await createKey(access.store, access.hashSecret, { account: name })).key_id;
}

async function charge(keyId: string, units: number, atMs: number) {
  const key = (await access.store.key(keyId))!;
  const account = (await access.store.account(key.account))!;
  const outcome = await access.meter.charge(key, account.tier, units, atMs);
  if (!outcome.ok) throw new Error('charge refused');
  return outcome.charge;
}

describe('usage history kept by the meter', () => {
  it('when calls are charged and one refunded, then the day shows the units spent and the last call', async () => {
    const acme = await account('pro');
    const keyId = await proKey(acme.name);
    await charge(keyId, 1, T0);
    const answeredWithError = await charge(keyId, 2, T0 + 1_000);
    await charge(keyId, 1, T0 + 2_000);
    await access.meter.refund(answeredWithError, answeredWithError.units);
    await access.meter.returnSpare();

    const view = (await accountKeys(access.store, acme.name, T0 + 3_000))!;
    expect(view.keys[0]!.days.at(-1)).toEqual({ day: '2026-11-21', units: 2 });
    expect(view.keys[0]!.lastUsedAt).toBe(new Date(T0 + 2_000).toISOString());
    // The window counts what was charged, not the spare block (returned above).
    expect(view.keys[0]!.windows).toMatchObject([{ window: 'daily', limit: 1_000, used: 2, remaining: 998 }]);
  });

  it('when a refund arrives after its charge was written, then the day goes down but never below zero', async () => {
    const acme = await account('pro');
    const keyId = await proKey(acme.name);
    const charged = await charge(keyId, 3, T0);
    await access.meter.returnSpare();
    await access.meter.refund(charged, 3);
    await access.meter.returnSpare();
    const history = new UsageHistory(access.store.db);
    expect(await history.daysOf(acme.name, '2026-11-01')).toEqual([{ keyId, day: '2026-11-21', units: 0 }]);
    await history.add([{ keyId, day: '2026-11-21', units: -5, lastUsedAtMs: 0 }]);
    expect((await history.daysOf(acme.name, '2026-11-01'))[0]!.units).toBe(0);
    // A refund of a day never charged creates no row.
    await history.add([{ keyId, day: '2026-11-20', units: -1, lastUsedAtMs: 0 }]);
    expect(await history.daysOf(acme.name, '2026-11-01')).toHaveLength(1);
  });

  it('when the meter writes a new day, then days older than the retention go, but each key keeps its newest day and its last use', async () => {
    const acme = await account('pro');
    const busy = await proKey(acme.name);
    const idle = await proKey(acme.name);
    const history = new UsageHistory(access.store.db);
    const dayAgo = (days: number) => new Date(T0 - days * DAY_MS).toISOString().slice(0, 10);
    await history.add([
      { keyId: busy, day: dayAgo(USAGE_RETENTION_DAYS + 5), units: 3, lastUsedAtMs: T0 - (USAGE_RETENTION_DAYS + 5) * DAY_MS },
      { keyId: busy, day: dayAgo(USAGE_RETENTION_DAYS), units: 4, lastUsedAtMs: T0 - USAGE_RETENTION_DAYS * DAY_MS },
      { keyId: idle, day: dayAgo(USAGE_RETENTION_DAYS + 30), units: 2, lastUsedAtMs: T0 - (USAGE_RETENTION_DAYS + 30) * DAY_MS },
      { keyId: idle, day: dayAgo(USAGE_RETENTION_DAYS + 20), units: 1, lastUsedAtMs: T0 - (USAGE_RETENTION_DAYS + 20) * DAY_MS },
    ]);
    await charge(busy, 2, T0);
    await access.meter.returnSpare();

    const kept = (await history.daysOf(acme.name, '2000-01-01')).map((d) => ({ keyId: d.keyId, day: d.day }));
    const expected = [
      { keyId: busy, day: dayAgo(USAGE_RETENTION_DAYS) },
      { keyId: busy, day: dayAgo(0) },
      { keyId: idle, day: dayAgo(USAGE_RETENTION_DAYS + 20) },
    ];
    // daysOf lists by key id, then day.
    expect(kept).toEqual(expected.sort((a, b) => (a.keyId === b.keyId ? (a.day < b.day ? -1 : 1) : a.keyId < b.keyId ? -1 : 1)));
    expect((await history.lastUsedOf(acme.name)).get(idle)).toBe(T0 - (USAGE_RETENTION_DAYS + 20) * DAY_MS);
  });

  it("when the account's pages spend with no key, then their days are the account's own: charted apart from its keys, refunded, trimmed", async () => {
    const acme = await account('pro');
    const keyId = await proKey(acme.name);
    const history = new UsageHistory(access.store.db);
    const pages = accountPagesUsageId(acme.name);
    const dayAgo = (days: number) => new Date(T0 - days * DAY_MS).toISOString().slice(0, 10);
    await history.add([
      { keyId: pages, day: dayAgo(USAGE_RETENTION_DAYS + 5), units: 3, lastUsedAtMs: T0 - (USAGE_RETENTION_DAYS + 5) * DAY_MS },
      { keyId: pages, day: dayAgo(1), units: 9, lastUsedAtMs: T0 - DAY_MS },
      { keyId: pages, day: dayAgo(0), units: 5, lastUsedAtMs: T0 },
    ]);
    await history.add([{ keyId: pages, day: dayAgo(0), units: -7, lastUsedAtMs: 0 }]);
    await charge(keyId, 2, T0);
    await access.meter.returnSpare(); // writes a new day: the page day beyond the retention goes

    expect(await history.pageDaysOf(acme.name, '2000-01-01')).toEqual([
      { day: dayAgo(1), units: 9 },
      { day: dayAgo(0), units: 0 },
    ]);
    const view = (await accountKeys(access.store, acme.name, T0))!;
    expect(view.pages.lastUsedAt).toBe(new Date(T0).toISOString());
    expect(view.pages.days.slice(-2)).toEqual([
      { day: dayAgo(1), units: 9 },
      { day: dayAgo(0), units: 0 },
    ]);
    expect(view.keys.map((k) => k.days.at(-1)!.units)).toEqual([2]);
    expect((await accountKeys(access.store, (await account('pro')).name, T0))!.pages.lastUsedAt).toBeNull();
  });

  it('when calls fall on several days, then the chart has 30 days ending today with each day in its place', async () => {
    const acme = await account('pro');
    const keyId = await proKey(acme.name);
    await charge(keyId, 4, T0 - 40 * DAY_MS); // outside the chart
    await charge(keyId, 5, T0 - 29 * DAY_MS); // its first day
    await charge(keyId, 6, T0 - 2 * DAY_MS);
    await charge(keyId, 7, T0);
    await access.meter.returnSpare();

    const days = (await accountKeys(access.store, acme.name, T0))!.keys[0]!.days;
    expect(days).toHaveLength(USAGE_CHART_DAYS);
    expect(days.map((d) => d.day)).toEqual(chartDays(T0));
    expect(days[0]).toEqual({ day: '2026-10-23', units: 5 });
    expect(days[27]).toEqual({ day: '2026-11-19', units: 6 });
    expect(days[29]).toEqual({ day: '2026-11-21', units: 7 });
    expect(days.reduce((sum, d) => sum + d.units, 0)).toBe(18);
  });

  it("when two API processes meter one key, then the day adds both processes' units and keeps the latest use", async () => {
    const acme = await account('pro');
    const keyId = await proKey(acme.name);
    const db = await openServiceDb(await testServiceState(temp.dir));
    const other = new QuotaMeter(new AccessStore(db), 60_000);
    try {
      const key = (await access.store.key(keyId))!;
      expect((await access.meter.charge(key, 'pro', 2, T0 + 5_000)).ok).toBe(true);
      expect((await other.charge(key, 'pro', 3, T0 + 9_000)).ok).toBe(true);
      // The later use is written first: "last used" must not go back when the earlier one arrives.
      await other.returnSpare();
      await access.meter.returnSpare();
    } finally {
      await other.close();
      await db.close();
    }
    const view = (await accountKeys(access.store, acme.name, T0 + 10_000))!.keys[0]!;
    expect(view.days.at(-1)!.units).toBe(5);
    expect(view.lastUsedAt).toBe(new Date(T0 + 9_000).toISOString());
    expect(view.windows[0]!.used).toBe(5);
  });

  it('when the API stops, then the history tallied since the last write is written at close', async () => {
    const acme = await account('pro');
    const keyId = await proKey(acme.name);
    await charge(keyId, 9, T0);
    await access.close();
    access = await openAccess({ ...(await testServiceState(temp.dir)), upgradeUrl: 'https://x.test/upgrade' });
    expect((await accountKeys(access.store, acme.name, T0))!.keys[0]!.days.at(-1)!.units).toBe(9);
  });
});

describe("an account's own keys", () => {
  it('lists only its own keys, newest first, and a revoked key shows no live windows', async () => {
    const acme = await account('pro');
    const other = await account('pro');
    const older = await proKey(acme.name);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newer = await proKey(acme.name);
    await proKey(other.name);
    await revokeOwnKey(access.store, acme.name, older, new Date());

    const view = (await accountKeys(access.store, acme.name, Date.now()))!;
    expect(view.keys.map((k) => k.key.keyId)).toEqual([newer, older]);
    expect(view.keys[1]!.windows).toEqual([]);
    expect(view.keys[1]!.lastUsedAt).toBeNull();
    expect(await accountKeys(access.store, 'no-such-account', Date.now())).toBeUndefined();
  });

  it('shows a partner key its daily and 30-day windows', async () => {
    const partner = await account('partner');
    const { key_id } = await createKey(access.store, access.hashSecret, { account: partner.name, dailyLimit: 50, monthlyQuota: 900 });
    await charge(key_id, 3, T0);
    await access.meter.returnSpare();
    const windows = (await accountKeys(access.store, partner.name, T0))!.keys[0]!.windows;
    expect(windows).toMatchObject([
      { window: 'daily', limit: 50, used: 3 },
      { window: 'monthly', limit: 900, used: 3 },
    ]);
  });

  it('creates a working key with the tier terms for a pro account', async () => {
    const acme = await account('pro');
    const created = await createOwnKey(access.store, access.hashSecret, acme, new Date());
    if (!created.ok) throw new Error(created.reason);
    const stored = (await access.store.key(created.keyId))!;
    expect(stored).toMatchObject({ account: acme.name, allowedMarkets: null, allowedEndpoints: null, dailyLimit: null, revokedAt: null });
    expect(apiKeyMatches(access.hashSecret, created.key, stored.secretHash)).toBe(true);
  });

  it('refuses keys to free, lapsed and partner accounts, and beyond the live-key cap', async () => {
    const create = (a: AccountRecord) => createOwnKey(access.store, access.hashSecret, a, new Date());
    expect(await create(await account('free'))).toEqual({ ok: false, reason: 'free_tier' });
    expect(await create(await account('partner'))).toEqual({ ok: false, reason: 'partner_terms' });
    const lapsed = await account('team');
    expect(await create(await lapseAccount(access.store, lapsed.name))).toEqual({ ok: false, reason: 'lapsed' });

    const busy = await account('pro');
    for (let i = 0; i < SELF_SERVICE_LIVE_KEYS; i++) expect((await create(busy)).ok).toBe(true);
    expect(await create(busy)).toEqual({ ok: false, reason: 'too_many_keys' });
    // Revoking one makes room again.
    const first = (await access.store.keys(busy.name))[0]!;
    await revokeOwnKey(access.store, busy.name, first.keyId, new Date());
    expect((await create(busy)).ok).toBe(true);
  });

  it("never revokes or shows another account's key: it is not found, exactly like an unknown id", async () => {
    const acme = await account('pro');
    const other = await account('pro');
    const theirs = await proKey(other.name);
    expect(await revokeOwnKey(access.store, acme.name, theirs, new Date())).toBe('not_found');
    expect(await revokeOwnKey(access.store, acme.name, 'key_doesnotexist', new Date())).toBe('not_found');
    expect(await ownKey(access.store, acme.name, theirs)).toBeUndefined();
    expect((await access.store.key(theirs))!.revokedAt).toBeNull();

    const mine = await proKey(acme.name);
    expect((await ownKey(access.store, acme.name, mine))?.keyId).toBe(mine);
    expect(await revokeOwnKey(access.store, acme.name, mine, new Date())).toBe('revoked');
    expect(await revokeOwnKey(access.store, acme.name, mine, new Date())).toBe('already_revoked');
  });
});
