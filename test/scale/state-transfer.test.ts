import { execFile } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessStore, accountMeterId } from '../../access/access-store.ts';
import { createAccount, createKey } from '../../access/administration.ts';
import { AccountUserStore } from '../../access/account-user-store.ts';
import { AccountAuth } from '../../access/account-users.ts';
import { loadKeyHashSecret } from '../../access/key-hashing.ts';
import { signInKeyFrom } from '../../access/sign-in-limits.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import { CertificateStore } from '../../attest/certificate-store.ts';
import { SigningKeys } from '../../attest/signing-keys.ts';
import { signatureMatches } from '../../attest/signing.ts';
import { openServiceDb } from '../../service-state/db.ts';
import { testServiceState } from '../support/service-state.ts';
import { TEST_PIN, unsignedCertificate } from '../support/certificates.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { loadWebhookKey, openSecret, sealSecret } from '../../webhooks/secret-box.ts';
import { WebhookStore } from '../../webhooks/webhook-store.ts';

const SUBSCRIPTION_ID = `whs_${'5'.repeat(24)}`;

const run = promisify(execFile);
const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;
const T0 = Date.parse('2026-11-21T10:00:00Z');
const USER_PASSWORD = 'correct horse battery staple';

const UNSIGNED = unsignedCertificate('3', { score: 87.5, purification_per_share: 0.0125 });

/** The CLI with exactly this environment for the service state (no DATABASE_URL means DATA_DIR/service.db). */
async function faithscreen(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'));
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...base, LOG_LEVEL: 'silent', ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('moving an embedded deployment to PostgreSQL with state export and import', () => {
  let embedded: Awaited<ReturnType<typeof makeTempDir>>;
  let target: { databaseUrl: string };
  let key: string;
  let keyId: string;
  let pendingLink: string;

  beforeAll(async () => {
    embedded = await makeTempDir('faithscreen-embedded-');
    // The embedded deployment: an account, a metered key, a certificate and a revocation in service.db.
    const access: AccessSetup = await openAccess({ dataDir: embedded.dir, upgradeUrl: 'https://x.test/upgrade' });
    await createAccount(access.store, 'acme', 'partner');
    ({ key, key_id: keyId } = await createKey(access.store, access.hashSecret, {
      account: 'acme',
      dailyLimit: 100,
      endpoints: ['screen', 'attest'],
    }));
    const charged = await access.meter.charge((await access.store.key(keyId))!, 'partner', 7, T0);
    if (!charged.ok) throw new Error('the embedded key could not be charged');
    // An account-wide window too (what self-serve tiers spend from), carried like the key's.
    await access.store.atomically((quota) => quota.putWindow(accountMeterId('acme'), 'daily', { startedAtMs: T0, used: 3 }));
    await access.close();
    const db = await openServiceDb({ dataDir: embedded.dir });
    const certificates = new CertificateStore(db);
    await certificates.issue(UNSIGNED, TEST_PIN, { keyId, account: 'acme' }, new SigningKeys(db, embedded.dir));
    await certificates.issue(
      { ...UNSIGNED, cert_id: `fsc_${'4'.repeat(40)}` },
      TEST_PIN,
      { keyId, account: 'acme' },
      new SigningKeys(db, embedded.dir),
    );
    await certificates.revoke(`fsc_${'4'.repeat(40)}`, 'wrong filing');
    // A webhook subscription (its secret sealed under DATA_DIR/secrets/webhook-secret.key), an event and an attempt.
    const webhooks = new WebhookStore(db);
    await webhooks.createSubscription(
      {
        subscriptionId: SUBSCRIPTION_ID,
        account: 'acme',
        createdByKeyId: keyId,
        url: 'https://hooks.example.com/x',
        market: 'us',
        tickers: null,
        frameworks: ['christian_bri'],
        events: ['status.changed'],
        secretSealed: sealSecret(loadWebhookKey(embedded.dir), SUBSCRIPTION_ID, 'whsec_carried'),
        createdAt: '2026-11-21T09:30:00.000Z',
        deletedAt: null,
      },
      25,
    );
    const event = await webhooks.recordEvent({
      eventId: `evt_${'6'.repeat(24)}`,
      subscriptionId: SUBSCRIPTION_ID,
      type: 'status.changed',
      market: 'us',
      ticker: 'ACME',
      runId: 'nightly-x',
      body: '{}',
      createdAt: '2026-11-21T09:40:00.000Z',
    });
    await webhooks.recordAttempt(event.eventId, { attemptedAt: '2026-11-21T09:40:01.000Z', statusCode: 200, error: null, durationMs: 12 });
    // An account user with a password, and a second user whose link is still unused.
    const users = new AccountAuth({ store: new AccountUserStore(db), accessStore: new AccessStore(db) });
    const invited = await users.invite('acme', 'ada@example.com');
    if (!(await users.setPasswordWithInvite(invited.token, USER_PASSWORD)).ok) throw new Error('the password could not be set');
    pendingLink = (await users.invite('acme', 'bob@example.com')).token;
    await db.close();
    const { databaseUrl } = await testServiceState(path.join(embedded.dir, 'postgres-target'));
    target = { databaseUrl: databaseUrl! };
  }, 120_000);
  afterAll(() => embedded?.cleanup());

  it(
    'when the embedded state is exported and imported into PostgreSQL, then keys, usage, certificates, ' +
      'revocations, webhook subscriptions (secrets still sealed) and account users hold there',
    { timeout: 120_000 },
    async () => {
      const file = path.join(embedded.dir, 'state.jsonl');
      const exported = await faithscreen({ DATA_DIR: embedded.dir }, 'state', 'export', file);
      expect(exported.code).toBe(0);
      expect(JSON.parse(exported.stdout).exported).toEqual({
        accounts: 1,
        api_keys: 1,
        quota_windows: 1,
        account_quota_windows: 1,
        key_usage_days: 1,
        account_page_usage_days: 0,
        signing_keys: 1,
        certificates: 2,
        revocations: 1,
        webhook_subscriptions: 1,
        webhook_events: 1,
        webhook_attempts: 1,
        account_users: 2,
        account_invites: 2,
        custom_screens: 0,
        custom_screen_versions: 0,
      });
      expect(statSync(file).mode & 0o777).toBe(0o600);

      const imported = await faithscreen({ DATA_DIR: embedded.dir, DATABASE_URL: target.databaseUrl }, 'state', 'import', file);
      expect(imported.code).toBe(0);
      expect(JSON.parse(imported.stdout).imported).toEqual({
        accounts: 1,
        api_keys: 1,
        quota_windows: 1,
        account_quota_windows: 1,
        key_usage_days: 1,
        account_page_usage_days: 0,
        signing_keys: 1,
        certificates: 2,
        revocations: 1,
        webhook_subscriptions: 1,
        webhook_events: 1,
        webhook_attempts: 1,
        account_users: 2,
        account_invites: 2,
        custom_screens: 0,
        custom_screen_versions: 0,
      });

      // The same key authenticates and its usage carried over (7 units charged, plus the spare block returned at close).
      const access = await openAccess({ dataDir: embedded.dir, databaseUrl: target.databaseUrl, upgradeUrl: 'https://x.test/upgrade' });
      try {
        const stored = (await access.store.key(keyId))!;
        expect(stored.account).toBe('acme');
        expect((await access.store.window(keyId, 'daily'))?.used).toBe(7);
        expect(await access.store.window(accountMeterId('acme'), 'daily')).toEqual({ startedAtMs: T0, used: 3 });
        expect(key.startsWith('fs_live_')).toBe(true);
      } finally {
        await access.close();
      }
      const db = await openServiceDb({ dataDir: embedded.dir, databaseUrl: target.databaseUrl });
      try {
        const certificate = (await new CertificateStore(db).find(UNSIGNED.cert_id))!;
        expect(certificate.fields).toMatchObject({ verdict: 'compliant', score: 87.5, purification_per_share: 0.0125 });
        const keys = new SigningKeys(db, embedded.dir);
        expect(
          signatureMatches(certificate.fields, certificate.sig, keys.trustedSecret(certificate.fields.key_id, certificate.keyStatus)!),
        ).toBe(true);
        expect((await new CertificateStore(db).find(`fsc_${'4'.repeat(40)}`))!.revocation?.note).toBe('wrong filing');
        // The sealed webhook secret opens with the key kept in DATA_DIR/secrets, and its log came along.
        const subscription = (await new WebhookStore(db).subscription(SUBSCRIPTION_ID))!;
        expect(openSecret(loadWebhookKey(embedded.dir), SUBSCRIPTION_ID, subscription.secretSealed)).toBe('whsec_carried');
        expect((await new WebhookStore(db).deliveries(SUBSCRIPTION_ID, 10))[0]?.attempts).toHaveLength(1);
        // The user signs in with the same password; the unused link still works, the used one does not.
        const users = new AccountAuth({
          store: new AccountUserStore(db),
          accessStore: new AccessStore(db),
          signInKey: signInKeyFrom(loadKeyHashSecret(embedded.dir)),
        });
        expect(await users.signIn('ada@example.com', USER_PASSWORD, '127.0.0.1')).toMatchObject({
          ok: true,
          session: { accountId: 'acme' },
        });
        expect(await users.inviteEmail(pendingLink)).toBe('bob@example.com');
      } finally {
        await db.close();
      }

      // A second import is refused: the target is no longer empty, and nothing changes.
      const again = await faithscreen({ DATA_DIR: embedded.dir, DATABASE_URL: target.databaseUrl }, 'state', 'import', file);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already holds accounts rows; import only into an empty service state/);
    },
  );

  it('when the file is not an export or the export file exists already, then the command exits 1 saying so', async () => {
    const bogus = path.join(embedded.dir, 'bogus.jsonl');
    writeFileSync(bogus, '{"hello":1}\n');
    const notExport = await faithscreen({ DATA_DIR: path.join(embedded.dir, 'fresh') }, 'state', 'import', bogus);
    expect(notExport.code).toBe(1);
    expect(notExport.stderr).toMatch(/is not a faithscreen service-state export/);
    const exists = await faithscreen({ DATA_DIR: embedded.dir }, 'state', 'export', bogus);
    expect(exists.code).toBe(1);
    expect(exists.stderr).toMatch(/EEXIST/);
  });

  it('when DATABASE_URL points at nothing, then the command stops naming the address without its password', async () => {
    const failed = await faithscreen(
      { DATA_DIR: path.join(embedded.dir, 'unreachable'), DATABASE_URL: 'postgresql://faithscreen:hunter2@127.0.0.1:1/faithscreen' },
      'keys',
      'list',
    );
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(
      /the service state at postgresql:\/\/faithscreen:\*\*\*@127\.0\.0\.1:1\/faithscreen could not be opened: .*ECONNREFUSED/,
    );
    expect(failed.stderr).not.toContain('hunter2');
  });
});
