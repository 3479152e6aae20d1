import { createAccount, createKey, lapseAccount, type KeyRequest } from '../../access/administration.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import type { Tier } from '../../access/tiers.ts';

export const TEST_UPGRADE_URL = 'https://faithscreen.test/account/upgrade';

/**
 * Real access control over a real service.db in `dataDir`: pass `access.middleware` to
 * `createTestApi`/`serveLakeApi`, then mint keys with `keyFor`. Close with `access.close()`.
 * Key checks are not cached (authCacheMs 0) so a test's lapse or revoke holds at once.
 */
export function openTestAccess(dataDir: string, now?: () => number, authCacheMs = 0): AccessSetup {
  return openAccess({ dataDir, upgradeUrl: TEST_UPGRADE_URL, authCacheMs, ...(now ? { now } : {}) });
}

let accounts = 0;

/**
 * A new account on `tier` (lapsed when asked) and one key for it; returns the secret key
 * and its id. Partner keys get a daily limit of 1,000 unless the request sets one.
 */
export function keyFor(
  access: AccessSetup,
  tier: Exclude<Tier, 'free'>,
  request: Omit<KeyRequest, 'account'> & { lapsed?: boolean } = {},
): { key: string; keyId: string; account: string } {
  const account = `test-${tier}-${++accounts}-${process.pid}`;
  createAccount(access.store, account, tier);
  const { lapsed, ...rest } = request;
  const dailyLimit = tier === 'partner' ? (rest.dailyLimit ?? 1_000) : rest.dailyLimit;
  const created = createKey(access.store, access.hashSecret, { account, ...rest, ...(dailyLimit !== undefined ? { dailyLimit } : {}) });
  if (lapsed) lapseAccount(access.store, account);
  return { key: created.key, keyId: created.key_id, account };
}
