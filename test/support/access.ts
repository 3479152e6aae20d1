import { createAccount, createKey, lapseAccount, type KeyRequest } from '../../access/administration.ts';
import { meterIdOf } from '../../access/meter.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import type { Tier } from '../../access/tiers.ts';
import { testServiceState } from './service-state.ts';

export const TEST_UPGRADE_URL = 'https://faithscreen.test/account/upgrade';

/**
 * Real access control over the real service state of `dataDir` (service.db, or a PostgreSQL
 * database of its own in the `postgres` project; see service-state.ts): pass `access.middleware` to
 * `createTestApi`/`serveLakeApi`, then mint keys with `keyFor`. Close with `access.close()`.
 * Key checks are not cached (authCacheMs 0) so a test's lapse or revoke holds at once.
 */
export async function openTestAccess(dataDir: string, now?: () => number, authCacheMs = 0): Promise<AccessSetup> {
  return openAccess({ ...(await testServiceState(dataDir)), upgradeUrl: TEST_UPGRADE_URL, authCacheMs, ...(now ? { now } : {}) });
}

let accounts = 0;

/**
 * A new account on `tier` (lapsed when asked) and one key for it; returns the secret key
 * and its id. Partner keys get a daily limit of 1,000 unless the request sets one.
 */
export async function keyFor(
  access: AccessSetup,
  tier: Exclude<Tier, 'free'>,
  request: Omit<KeyRequest, 'account'> & { lapsed?: boolean } = {},
): Promise<{ key: string; keyId: string; account: string }> {
  const account = `test-${tier}-${++accounts}-${process.pid}`;
  await createAccount(access.store, account, tier);
  const { lapsed, ...rest } = request;
  const dailyLimit = tier === 'partner' ? (rest.dailyLimit ?? 1_000) : rest.dailyLimit;
  const created = await createKey(access.store, access.hashSecret, {
    account,
    ...rest,
    ...(dailyLimit !== undefined ? { dailyLimit } : {}),
  });
  if (lapsed) await lapseAccount(access.store, account);
  return { key: created.key, keyId: created.key_id, account };
}

/** Units committed to the window a key spends from (its account's for self-serve keys); spare units a meter holds are not returned first. */
export async function meterUsed(access: AccessSetup, keyId: string, window: 'daily' | 'monthly' = 'daily'): Promise<number> {
  const key = await access.store.key(keyId);
  const account = key && (await access.store.account(key.account));
  if (!key || !account) throw new Error(`no key ${keyId}`);
  return Number((await access.store.window(meterIdOf(key, account.tier), window))?.used ?? 0);
}
