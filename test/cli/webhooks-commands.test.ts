import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessStore } from '../../access/access-store.ts';
import { createAccount, createKey } from '../../access/administration.ts';
import { openServiceDb, type ServiceDb } from '../../service-state/db.ts';
import { newSubscriptionId } from '../../webhooks/events.ts';
import { sealSecret } from '../../webhooks/secret-box.ts';
import { WebhookStore } from '../../webhooks/webhook-store.ts';
import { runFaithscreen } from '../api/support/attest-fixture.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';

describe('faithscreen webhooks list and delete on the service state', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let db: ServiceDb;
  let store: WebhookStore;
  const key = randomBytes(32);

  async function subscribe(account: string, url: string, createdByKeyId = 'key_cli'): Promise<string> {
    const subscriptionId = newSubscriptionId();
    const created = await store.createSubscription(
      {
        subscriptionId,
        account,
        createdByKeyId,
        url,
        market: 'us',
        tickers: null,
        frameworks: ['shariah_aaoifi'],
        events: ['status.changed'],
        secretSealed: sealSecret(key, subscriptionId, 'whsec_never_printed'),
        createdAt: new Date().toISOString(),
        deletedAt: null,
      },
      25,
    );
    if (!created) throw new Error('subscription refused');
    return subscriptionId;
  }

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-webhooks-cli-');
    db = await openServiceDb(await testServiceState(temp.dir));
    store = new WebhookStore(db);
    await createAccount(new AccessStore(db), 'acme', 'pro');
    await createAccount(new AccessStore(db), 'globex', 'team');
  });
  afterAll(async () => {
    await db?.close();
    await temp?.cleanup();
  });

  it("when an operator lists subscriptions, then every account's live ones show, or one account's, never a secret", async () => {
    const acme = await subscribe('acme', 'https://hooks.acme.example/fs');
    const globex = await subscribe('globex', 'https://globex.example/hook');
    const all = await runFaithscreen(temp.dir, ['webhooks', 'list']);
    expect(all.code).toBe(0);
    const listed = JSON.parse(all.stdout) as Array<{ id: string; account: string; url: string }>;
    expect(listed.map((s) => [s.id, s.account])).toEqual(
      expect.arrayContaining([
        [acme, 'acme'],
        [globex, 'globex'],
      ]),
    );
    expect(all.stdout).not.toMatch(/whsec_|secret/);
    const one = await runFaithscreen(temp.dir, ['webhooks', 'list', '--account', 'globex']);
    expect((JSON.parse(one.stdout) as Array<{ id: string }>).map((s) => s.id)).toEqual([globex]);
  });

  it('when an operator deletes a subscription, then it is gone from the lists and nothing more is delivered to it', async () => {
    const doomed = await subscribe('acme', 'https://noisy.example/hook');
    const deleted = await runFaithscreen(temp.dir, ['webhooks', 'delete', doomed]);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(`deleted ${doomed} of account 'acme' (https://noisy.example/hook)\n`);
    expect((await store.subscription(doomed))?.deletedAt).not.toBeNull();
    expect((await store.deliverableSubscriptions()).map((s) => s.subscriptionId)).not.toContain(doomed);
    const listed = await runFaithscreen(temp.dir, ['webhooks', 'list', '--account', 'acme']);
    expect((JSON.parse(listed.stdout) as Array<{ id: string }>).map((s) => s.id)).not.toContain(doomed);

    const again = await runFaithscreen(temp.dir, ['webhooks', 'delete', doomed]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`no live subscription ${doomed}; see 'faithscreen webhooks list'`));
  });

  it("when an operator revokes a key, then its subscriptions are listed as silent, or deleted with --end-webhooks; other keys' stay", async () => {
    const access = new AccessStore(db);
    const [kept, ended] = [
      await createKey(access, randomBytes(32), { account: 'acme' }),
      await createKey(access, randomBytes(32), { account: 'acme' }),
    ];
    const silent = await subscribe('acme', 'https://kept.example/hook', kept.key_id);
    const doomed = await subscribe('acme', 'https://ended.example/hook', ended.key_id);

    const revoked = await runFaithscreen(temp.dir, ['keys', 'revoke', kept.key_id]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({
      key_id: kept.key_id,
      revoked_at: expect.any(String),
      webhook_subscriptions: { silent: [silent], note: expect.stringMatching(/deliver nothing while their key is revoked/) },
    });
    expect((await store.subscription(silent))?.deletedAt).toBeNull();

    const revokedAndEnded = await runFaithscreen(temp.dir, ['keys', 'revoke', ended.key_id, '--end-webhooks']);
    expect(revokedAndEnded.code).toBe(0);
    expect(JSON.parse(revokedAndEnded.stdout)).toMatchObject({ key_id: ended.key_id, webhook_subscriptions: { ended: [doomed] } });
    expect((await store.subscription(doomed))?.deletedAt).not.toBeNull();
    expect((await store.subscription(silent))?.deletedAt).toBeNull();
  });

  it('when the id is not a subscription id, then it exits 1 saying what ids look like', async () => {
    const bad = await runFaithscreen(temp.dir, ['webhooks', 'delete', 'whk_nope']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/'whk_nope' is not a subscription id; ids look like whs_ followed by 24 hex digits/);
  });
});
