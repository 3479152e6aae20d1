import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMeterId } from '../../access/access-store.ts';
import { createOwnKey, revokeOwnKey } from '../../access/account-keys.ts';
import { createAccount, createKey } from '../../access/administration.ts';
import type { AccessSetup } from '../../access/open-access.ts';
import { DAY_MS } from '../../access/tiers.ts';
import { meterUsed, openTestAccess } from '../support/access.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { type FixtureTickers, type ServedLakeApi, serveLakeApi } from './support/lake-fixture.ts';

describe("self-serve quotas are the account's, shared by its keys; partner quotas stay per key (real HTTP)", () => {
  let lake: ServedLakeApi;
  let t: FixtureTickers;
  let access: AccessSetup;
  let serviceDir: Awaited<ReturnType<typeof makeTempDir>>;
  const clock = Date.parse('2026-11-21T10:00:00Z');
  let accounts = 0;

  const status = async (key: string, ticker = t.fresh[0]!) =>
    (await fetch(`${lake.server.url}/api/screen/us/${ticker}`, { headers: { 'X-API-Key': key } })).status;

  /** A pro account (1,000 units a day) whose daily window already holds `used` units. */
  async function proAccountWithUsed(used: number): Promise<string> {
    const name = `quota-${++accounts}`;
    await createAccount(access.store, name, 'pro');
    await access.store.atomically((quota) => quota.putWindow(accountMeterId(name), 'daily', { startedAtMs: clock, used }));
    return name;
  }

  async function ownKey(name: string): Promise<{ key: string; keyId: string }> {
    const created = await createOwnKey(access.store, access.hashSecret, (await access.store.account(name))!, new Date(clock));
    if (!created.ok) throw new Error(created.reason);
    return created;
  }

  beforeAll(async () => {
    serviceDir = await makeTempDir();
    access = await openTestAccess(serviceDir.dir, () => clock);
    lake = await serveLakeApi(undefined, access.middleware);
    t = lake.t;
  }, 120_000);
  afterAll(async () => {
    await lake?.close();
    await access?.close();
    await serviceDir?.cleanup();
  });

  it('when a pro account spends its day, revokes its key and creates a new one, then the new key gets 429 until the window resets', async () => {
    const name = await proAccountWithUsed(998);
    const first = await ownKey(name);
    expect(await status(first.key)).toBe(200);
    expect(await status(first.key)).toBe(200);
    expect(await status(first.key)).toBe(429);
    expect(await revokeOwnKey(access.store, name, first.keyId, new Date(clock))).toBe('revoked');
    const second = await ownKey(name);
    const refused = await fetch(`${lake.server.url}/api/screen/us/${t.fresh[0]}`, { headers: { 'X-API-Key': second.key } });
    expect(refused.status).toBe(429);
    const detail = (
      (await refused.json()) as { detail: { message: string; limits: Array<{ used: number; limit: number; resets_at: string }> } }
    ).detail;
    expect(detail.message).toContain("the account's daily quota (1000 of 1000 units used");
    expect(detail.limits[0]).toMatchObject({ used: 1000, limit: 1000, resets_at: new Date(clock + DAY_MS).toISOString() });
  });

  it('when two keys of one account with 10 units left take 200 requests at once, then exactly 10 succeed between them', async () => {
    const name = await proAccountWithUsed(990);
    const keys = [await ownKey(name), await ownKey(name)];
    const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => status(keys[i % 2]!.key, t.fresh[i % t.fresh.length])));
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(190);
    await access.meter.returnSpare();
    expect(await meterUsed(access, keys[0]!.keyId)).toBe(1000);
    expect(await meterUsed(access, keys[1]!.keyId)).toBe(1000);
  }, 60_000);

  it('when two partner keys of one account each have a daily limit of 2, then each spends its own', async () => {
    const name = `partner-${++accounts}`;
    await createAccount(access.store, name, 'partner');
    const keys = [
      await createKey(access.store, access.hashSecret, { account: name, dailyLimit: 2 }),
      await createKey(access.store, access.hashSecret, { account: name, dailyLimit: 2 }),
    ];
    for (const { key } of keys) expect([await status(key), await status(key), await status(key)]).toEqual([200, 200, 429]);
    await access.meter.returnSpare();
    for (const { key_id } of keys) expect(await meterUsed(access, key_id)).toBe(2);
  });
});
