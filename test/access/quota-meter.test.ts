import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount, createKey } from '../../access/administration.ts';
import { AccessStore, type KeyRecord } from '../../access/access-store.ts';
import { allowanceBlock, QuotaMeter } from '../../access/meter.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import { DAY_MS } from '../../access/tiers.ts';
import { openServiceDb, type ServiceDb } from '../../service-state/db.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const T0 = Date.parse('2026-11-21T10:00:00Z');

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let access: AccessSetup;
const extra: Array<{ meter: QuotaMeter; db: ServiceDb }> = [];

beforeEach(async () => {
  temp = await makeTempDir();
  access = await openAccess({ ...(await testServiceState(temp.dir)), upgradeUrl: 'https://x.test/upgrade' });
});
afterEach(async () => {
  for (const { meter, db } of extra.splice(0)) {
    await meter.close();
    await db.close();
  }
  await access.close();
  await temp.cleanup();
});

/** A second API process's meter: its own connection to the same service state. */
async function otherProcess(): Promise<QuotaMeter> {
  const db = await openServiceDb(await testServiceState(temp.dir));
  const meter = new QuotaMeter(new AccessStore(db), 60_000);
  extra.push({ meter, db });
  return meter;
}

async function partnerKey(dailyLimit: number): Promise<KeyRecord> {
  const name = `p${Math.random().toString(36).slice(2)}`;
  await createAccount(access.store, name, 'partner');
  return (await access.store.key((await createKey(access.store, access.hashSecret, { account: name, dailyLimit })).key_id))!;
}

const usedIn = async (keyId: string) => (await access.store.window(keyId, 'daily'))?.used ?? 0;

describe('quota meter', () => {
  it('takes a spare block of a tenth of what is left, at most 50', () => {
    expect([allowanceBlock(0), allowanceBlock(9), allowanceBlock(10), allowanceBlock(999), allowanceBlock(1e9)]).toEqual([0, 0, 1, 50, 50]);
  });

  it('when two processes meter one key with 10 units left, then exactly 10 requests pass between them', async () => {
    const key = await partnerKey(10);
    const meters = [access.meter, await otherProcess()];
    let passed = 0;
    for (let i = 0; i < 100; i++) if ((await meters[i % 2]!.charge(key, 'partner', 1, T0 + i)).ok) passed += 1;
    expect(passed).toBe(10);
    for (const meter of meters) await meter.returnSpare();
    expect(await usedIn(key.keyId)).toBe(10);
  });

  it('when 300 charges of two processes race on a key with 10 units, then exactly 10 pass and 10 units are used', async () => {
    const key = await partnerKey(10);
    const meters = [access.meter, await otherProcess()];
    const outcomes = await Promise.all(Array.from({ length: 300 }, (_, i) => meters[i % 2]!.charge(key, 'partner', 1, T0)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
    for (const meter of meters) await meter.returnSpare();
    expect(await usedIn(key.keyId)).toBe(10);
  });

  it('when charges of different sizes arrive together, then they are decided in arrival order, each all or nothing', async () => {
    const key = await partnerKey(10);
    const outcomes = await Promise.all([6, 6, 4].map((units) => access.meter.charge(key, 'partner', units, T0)));
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    await access.meter.returnSpare();
    expect(await usedIn(key.keyId)).toBe(10);
  });

  it('when a process dies holding spare units, then the key is over-counted by at most its block, never under-counted', async () => {
    const key = await partnerKey(1_000);
    const dying = await otherProcess();
    for (let i = 0; i < 7; i++) expect((await dying.charge(key, 'partner', 1, T0)).ok).toBe(true);
    // no returnSpare(): the process is gone; what it spent is counted, plus its spare block
    const used = await usedIn(key.keyId);
    expect(used).toBeGreaterThanOrEqual(7);
    expect(used - 7).toBeLessThanOrEqual(allowanceBlock(1_000 - 1));
  });

  it('when a charge is refunded, then the units are spendable again and the store ends at what was spent', async () => {
    const key = await partnerKey(3);
    const first = await access.meter.charge(key, 'partner', 2, T0);
    expect(first.ok).toBe(true);
    if (first.ok) await access.meter.refund(first.charge, 2);
    expect((await access.meter.charge(key, 'partner', 3, T0)).ok).toBe(true);
    expect((await access.meter.charge(key, 'partner', 1, T0)).ok).toBe(false);
    await access.meter.returnSpare();
    expect(await usedIn(key.keyId)).toBe(3);
  });

  it('when the window ends, then spare units of the old window are not spent in the new one', async () => {
    const key = await partnerKey(1_000);
    expect((await access.meter.charge(key, 'partner', 1, T0)).ok).toBe(true);
    expect((await access.meter.charge(key, 'partner', 1, T0 + DAY_MS)).ok).toBe(true);
    await access.meter.returnSpare();
    expect(await access.store.window(key.keyId, 'daily')).toEqual({ startedAtMs: T0 + DAY_MS, used: 1 });
  });
});
