import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AdminError,
  createAccount,
  createKey,
  lapseAccount,
  listKeys,
  reinstateAccount,
  revokeKey,
  setAccountTier,
} from '../../access/administration.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';

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

const expectRefused = (action: () => Promise<unknown>, message: RegExp) =>
  expect(action()).rejects.toThrow(
    expect.objectContaining({ name: 'AdminError', message: expect.stringMatching(message) }) as unknown as AdminError,
  );

describe('accounts', () => {
  it('creates, lapses and reinstates an account', async () => {
    await createAccount(access.store, 'acme', 'pro');
    expect((await lapseAccount(access.store, 'acme')).lapsedAt).not.toBeNull();
    expect((await reinstateAccount(access.store, 'acme')).lapsedAt).toBeNull();
  });

  it('refuses unknown tiers, bad names, duplicates and unknown accounts with what is valid', async () => {
    await expectRefused(
      () => createAccount(access.store, 'acme', 'gold'),
      /unknown tier 'gold'; valid tiers: free, pro, team, enterprise, partner/,
    );
    await expectRefused(() => createAccount(access.store, '-acme', 'pro'), /invalid account name/);
    await createAccount(access.store, 'acme', 'pro');
    await expectRefused(() => createAccount(access.store, 'acme', 'team'), /already exists/);
    await expectRefused(() => lapseAccount(access.store, 'nobody'), /no account named 'nobody'/);
  });
});

describe('changing tier', () => {
  it('moves an account up and down; its keys then meter at the new tier', async () => {
    await createAccount(access.store, 'acme', 'pro');
    const { key_id } = await createKey(access.store, access.hashSecret, { account: 'acme' });
    expect((await setAccountTier(access.store, 'acme', 'team')).tier).toBe('team');
    expect((await listKeys(access.store, 'acme'))[0]!.usage[0]!.limit).toBe(10_000);
    expect((await setAccountTier(access.store, 'acme', 'free')).tier).toBe('free');
    expect((await access.store.key(key_id))!.revokedAt).toBeNull();
  });

  it('refuses an unknown tier or account, and moves whose live keys would not fit, naming them', async () => {
    await expectRefused(() => setAccountTier(access.store, 'nobody', 'pro'), /no account named 'nobody'/);
    await createAccount(access.store, 'acme', 'pro');
    await expectRefused(() => setAccountTier(access.store, 'acme', 'gold'), /unknown tier 'gold'; valid tiers: free, pro/);
    const { key_id } = await createKey(access.store, access.hashSecret, { account: 'acme' });
    await expectRefused(() => setAccountTier(access.store, 'acme', 'partner'), new RegExp(`need a daily limit .*${key_id}`));
    await revokeKey(access.store, key_id);
    expect((await setAccountTier(access.store, 'acme', 'partner')).tier).toBe('partner');
    const partnerKey = await createKey(access.store, access.hashSecret, { account: 'acme', dailyLimit: 10, monthlyQuota: 100 });
    await expectRefused(() => setAccountTier(access.store, 'acme', 'enterprise'), new RegExp(`partner terms .*${partnerKey.key_id}`));
    expect((await access.store.account('acme'))!.tier).toBe('partner');
  });
});

describe('keys', () => {
  it('gives a key to paid tiers only and stores no secret', async () => {
    await createAccount(access.store, 'free-co', 'free');
    await expectRefused(() => createKey(access.store, access.hashSecret, { account: 'free-co' }), /free tier, which has no API access/);
    await createAccount(access.store, 'pro-co', 'pro');
    const created = await createKey(access.store, access.hashSecret, { account: 'pro-co' });
    expect(created.key).toMatch(/^fs_live_/);
    expect(created.usage).toEqual([expect.objectContaining({ window: 'daily', limit: 1_000, used: 0 })]);
    const stored = JSON.stringify(await access.store.db.all('SELECT * FROM api_keys'));
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(created.key.slice(20));
    expect(JSON.stringify(await listKeys(access.store))).not.toContain(created.key.slice(20));
  });

  it('refuses keys for lapsed accounts', async () => {
    await createAccount(access.store, 'gone', 'team');
    await lapseAccount(access.store, 'gone');
    await expectRefused(() => createKey(access.store, access.hashSecret, { account: 'gone' }), /lapsed on .*reinstate it/);
  });

  it('holds partner terms to partner keys and requires their daily limit', async () => {
    await createAccount(access.store, 'partner-co', 'partner');
    await createAccount(access.store, 'team-co', 'team');
    await expectRefused(() => createKey(access.store, access.hashSecret, { account: 'partner-co' }), /partner keys need --daily-limit/);
    await expectRefused(() => createKey(access.store, access.hashSecret, { account: 'team-co', monthlyQuota: 10 }), /partner terms/);
    const key = await createKey(access.store, access.hashSecret, {
      account: 'partner-co',
      dailyLimit: 500,
      monthlyQuota: 9_000,
      weights: { screen: 2, attest: 10 },
    });
    expect(key.usage.map((u) => [u.window, u.limit])).toEqual([
      ['daily', 500],
      ['monthly', 9_000],
    ]);
    expect(key.cost_weights).toEqual({ screen: 2, attest: 10 });
  });

  it('validates scopes against the real markets, endpoint tags and framework ids, normalising market slugs', async () => {
    await createAccount(access.store, 'p', 'partner');
    const base = { account: 'p', dailyLimit: 10 };
    await expectRefused(
      () => createKey(access.store, access.hashSecret, { ...base, markets: ['us', 'atlantis'] }),
      /unknown market 'atlantis'; valid markets: us, ca/,
    );
    await expectRefused(
      () => createKey(access.store, access.hashSecret, { ...base, endpoints: ['screen', 'admin'] }),
      /unknown endpoint tags admin; valid endpoint tags: screen, screen\/history/,
    );
    await expectRefused(
      () => createKey(access.store, access.hashSecret, { ...base, frameworks: ['shariah_xyz'] }),
      /unknown framework ids shariah_xyz; valid framework ids: shariah_aaoifi/,
    );
    await expectRefused(
      () => createKey(access.store, access.hashSecret, { ...base, weights: { public: 1 } }),
      /unknown endpoint tags public/,
    );
    await expectRefused(
      () => createKey(access.store, access.hashSecret, { ...base, dailyLimit: 0 }),
      /--daily-limit must be a whole number of units ≥ 1/,
    );
    const key = await createKey(access.store, access.hashSecret, { ...base, markets: ['united-kingdom', 'us', 'gb'] });
    expect(key.allowed_markets).toEqual(['gb', 'us']);
  });

  it('revokes a key once and says so when asked again or for an unknown id', async () => {
    await createAccount(access.store, 'acme', 'pro');
    const { key_id } = await createKey(access.store, access.hashSecret, { account: 'acme' });
    expect((await revokeKey(access.store, key_id)).revoked_at).not.toBeNull();
    await expectRefused(() => revokeKey(access.store, key_id), /already revoked/);
    await expectRefused(() => revokeKey(access.store, 'key_nope'), /no key with id 'key_nope'/);
  });
});
