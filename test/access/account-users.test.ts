import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessStore } from '../../access/access-store.ts';
import { createAccount } from '../../access/administration.ts';
import { AccountUserStore } from '../../access/account-user-store.ts';
import { AccountAuth, type AccountAuthOptions } from '../../access/account-users.ts';
import { passwordMatches } from '../../access/password-hashing.ts';
import { openServiceDb, type ServiceDb } from '../../service-state/db.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** Cheap scrypt: these tests are about the rules; the production parameters are tested in password-hashing.test.ts. */
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery staple';
const HOUR = 3_600_000;
const KEY = Buffer.alloc(32, 7);

describe('account users, links, sessions and sign-in limits in the real service state', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let db: ServiceDb;
  let clock: number;
  let checks: number;

  const authOn = (on: ServiceDb, options: Partial<AccountAuthOptions> = {}) =>
    new AccountAuth({
      store: new AccountUserStore(on),
      accessStore: new AccessStore(on),
      now: () => clock,
      scrypt: FAST,
      signInKey: KEY,
      failureDelayMs: 0,
      passwordMatches: async (password, stored) => {
        checks += 1;
        return passwordMatches(password, stored);
      },
      ...options,
    });

  /** An invited user with a password set; returns the session id the link's sign-in gave. */
  async function userWithPassword(auth: AccountAuth, account: string, email: string): Promise<string> {
    const invitation = await auth.invite(account, email);
    const set = await auth.setPasswordWithInvite(invitation.token, PASSWORD);
    if (!set.ok) throw new Error(set.message);
    return set.sessionId;
  }

  beforeEach(async () => {
    temp = await makeTempDir('faithscreen-account-users-');
    db = await openServiceDb(await testServiceState(temp.dir));
    clock = Date.parse('2026-11-23T10:00:00Z');
    checks = 0;
    await createAccount(new AccessStore(db), 'acme', 'pro');
    await createAccount(new AccessStore(db), 'globex', 'team');
  });
  afterEach(async () => {
    await db?.close();
    await temp?.cleanup();
  });

  it('when an operator invites a user, then the link names the user, is stored only as a hash and works once', async () => {
    const auth = authOn(db);
    const invitation = await auth.invite('acme', '  Ada@Example.COM ');
    expect(invitation).toMatchObject({ account: 'acme', email: 'ada@example.com', new_user: true });
    expect(invitation.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invitation.expires_at).toBe(new Date(clock + 72 * HOUR).toISOString());
    expect(await auth.inviteEmail(invitation.token)).toBe('ada@example.com');
    const stored = JSON.stringify(await db.all('SELECT * FROM account_invites'));
    expect(stored).not.toContain(invitation.token);

    const set = await auth.setPasswordWithInvite(invitation.token, PASSWORD);
    expect(set.ok).toBe(true);
    expect(await auth.inviteEmail(invitation.token)).toBeNull();
    const again = await auth.setPasswordWithInvite(invitation.token, 'another long password');
    expect(again).toMatchObject({ ok: false, reason: 'invalid_link' });
    const user = await new AccountUserStore(db).userByEmail('ada@example.com');
    expect(user?.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(user?.passwordHash).not.toContain(PASSWORD);
  });

  it('when the invitation is wrong, then it is refused naming what is valid', async () => {
    const auth = authOn(db);
    await expect(auth.invite('nobody', 'a@example.com')).rejects.toThrow(/no account named 'nobody'/);
    await expect(auth.invite('acme', 'not-an-email')).rejects.toThrow(/not an email address; expected name@example.com/);
    await auth.invite('acme', 'a@example.com');
    await expect(auth.invite('globex', 'A@example.com')).rejects.toThrow(/already a user of another account/);
    const renewed = await auth.invite('acme', 'a@example.com');
    expect(renewed.new_user).toBe(false);
    expect((await auth.users('acme')).map((u) => u.email)).toEqual(['a@example.com']);
    await expect(auth.users('nobody')).rejects.toThrow(/no account named 'nobody'/);
  });

  it('when a link has expired, or an older link is used after a newer one, then it sets nothing', async () => {
    const auth = authOn(db);
    const old = await auth.invite('acme', 'b@example.com', 1 * HOUR);
    clock += HOUR;
    expect(await auth.inviteEmail(old.token)).toBeNull();
    expect(await auth.setPasswordWithInvite(old.token, PASSWORD)).toMatchObject({ ok: false, reason: 'invalid_link' });

    const first = await auth.invite('acme', 'b@example.com');
    const second = await auth.invite('acme', 'b@example.com');
    expect((await auth.setPasswordWithInvite(second.token, PASSWORD)).ok).toBe(true);
    expect(await auth.setPasswordWithInvite(first.token, 'an attacker password')).toMatchObject({ ok: false, reason: 'invalid_link' });
    expect(await auth.setPasswordWithInvite('not a token', PASSWORD)).toMatchObject({ ok: false, reason: 'invalid_link' });
  });

  it('when the new password is too short, too long or the email itself, then the link stays usable and says what is valid', async () => {
    const auth = authOn(db);
    const invitation = await auth.invite('acme', 'carol@example.com');
    expect(await auth.setPasswordWithInvite(invitation.token, 'short')).toMatchObject({
      ok: false,
      reason: 'weak_password',
      message: expect.stringMatching(/at least 12 characters/),
    });
    expect(await auth.setPasswordWithInvite(invitation.token, 'x'.repeat(257))).toMatchObject({
      message: expect.stringMatching(/at most 256/),
    });
    expect(await auth.setPasswordWithInvite(invitation.token, 'Carol@Example.com')).toMatchObject({
      message: expect.stringMatching(/not be your email/),
    });
    expect(await auth.inviteEmail(invitation.token)).toBe('carol@example.com');
  });

  it('when the email is unknown or the password wrong, then the same answer after the same password check', async () => {
    const auth = authOn(db);
    await userWithPassword(auth, 'acme', 'dan@example.com');
    await auth.invite('acme', 'no-password-yet@example.com');
    checks = 0;
    const unknown = await auth.signIn('who@example.com', PASSWORD, '10.0.0.1');
    const wrong = await auth.signIn('dan@example.com', 'not the password at all', '10.0.0.1');
    const unset = await auth.signIn('no-password-yet@example.com', PASSWORD, '10.0.0.1');
    expect([unknown, wrong, unset]).toEqual([
      { ok: false, reason: 'invalid' },
      { ok: false, reason: 'invalid' },
      { ok: false, reason: 'invalid' },
    ]);
    expect(checks).toBe(3);
    const right = await auth.signIn(' DAN@example.com', PASSWORD, '10.0.0.1');
    expect(right).toMatchObject({ ok: true, session: { accountId: 'acme', email: 'dan@example.com' } });
  });

  it('when one email fails 5 times from one address, then even the right password waits there until the oldest failure is 15 minutes old; limits hold across processes', async () => {
    const auth = authOn(db);
    await userWithPassword(auth, 'acme', 'eve@example.com');
    // A second connection to the same state: another API process.
    const otherDb = await openServiceDb(await testServiceState(temp.dir));
    try {
      const other = authOn(otherDb);
      for (let i = 0; i < 5; i += 1) {
        const process = i % 2 === 0 ? auth : other;
        expect(await process.signIn('eve@example.com', `wrong password ${i}`, '10.0.1.1')).toEqual({ ok: false, reason: 'invalid' });
        clock += 60_000;
      }
      checks = 0;
      expect(await other.signIn('eve@example.com', PASSWORD, '10.0.1.1')).toEqual({
        ok: false,
        reason: 'rate_limited',
        retryAfterSeconds: 600,
      });
      expect(await auth.signIn('Eve@example.com', PASSWORD, '10.0.1.1')).toMatchObject({ reason: 'rate_limited' });
      expect(checks).toBe(0); // refused before any password check
      // From the user's own address, the stranger's failures change nothing.
      expect((await auth.signIn('eve@example.com', PASSWORD, '10.0.9.9')).ok).toBe(true);
      clock += 600_000;
      expect((await auth.signIn('eve@example.com', PASSWORD, '10.0.1.1')).ok).toBe(true);
    } finally {
      await otherDb.close();
    }
  });

  it('when 40 attempts race on two connections, then exactly the limit is recorded; a taken-back attempt frees its place', async () => {
    const otherDb = await openServiceDb(await testServiceState(temp.dir));
    try {
      const stores = [new AccountUserStore(db), new AccountUserStore(otherDb)];
      const rules = [{ subject: 'pair:race', limit: { failures: 5, windowMs: 60_000 } }];
      const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2]!.reserveAttempt(rules, clock)));
      expect(outcomes.filter((blocked) => blocked.length === 0)).toHaveLength(5);
      expect(outcomes.filter((blocked) => blocked[0]?.seconds === 60)).toHaveLength(35);
      await stores[0]!.releaseAttempt(rules, clock);
      expect(await stores[1]!.reserveAttempt(rules, clock)).toEqual([]);
      expect(await stores[1]!.reserveAttempt(rules, clock)).toEqual([{ subject: 'pair:race', seconds: 60 }]);
    } finally {
      await otherDb.close();
    }
  });

  it('when AccountAuth has no signInKey (the CLI), then it invites but refuses to count sign-ins', async () => {
    const auth = new AccountAuth({ store: new AccountUserStore(db), accessStore: new AccessStore(db), scrypt: FAST });
    await auth.invite('acme', 'cli@example.com');
    await expect(auth.signIn('cli@example.com', PASSWORD, '10.0.0.1')).rejects.toThrow(/without signInKey/);
  });

  it('when one address fails 20 times over many emails, then it waits; another address does not', async () => {
    const auth = authOn(db);
    await userWithPassword(auth, 'acme', 'fay@example.com');
    for (let i = 0; i < 20; i += 1) await auth.signIn(`guess${i}@example.com`, 'whatever it is', '192.0.2.7');
    expect(await auth.signIn('fay@example.com', PASSWORD, '192.0.2.7')).toMatchObject({ ok: false, reason: 'rate_limited' });
    expect((await auth.signIn('fay@example.com', PASSWORD, '192.0.2.8')).ok).toBe(true);
  });

  it('when a sign-in fails, then it is answered only after the failure delay and its address stays busy until then', async () => {
    const auth = authOn(db, { failureDelayMs: 800 });
    await userWithPassword(auth, 'acme', 'gil@example.com');
    const started = performance.now();
    const failing = auth.signIn('gil@example.com', 'not the password', '192.0.2.9');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(auth.signingIn('192.0.2.9')).toBe(true);
    expect(await auth.signIn('gil@example.com', PASSWORD, '192.0.2.9')).toMatchObject({ ok: false, reason: 'in_flight' });
    expect(await failing).toMatchObject({ ok: false, reason: 'invalid' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(800);
    expect(auth.signingIn('192.0.2.9')).toBe(false);
    const succeeded = performance.now();
    expect((await auth.signIn('gil@example.com', PASSWORD, '192.0.2.9')).ok).toBe(true);
    expect(performance.now() - succeeded).toBeLessThan(800);
  });

  it('when an operator removes a user, then their session ends, their unused link stops working, and the email can be invited again', async () => {
    const auth = authOn(db);
    const sessionId = await userWithPassword(auth, 'acme', 'kim@example.com');
    const pending = await auth.invite('acme', 'kim@example.com');
    expect(await auth.remove(' KIM@example.com')).toMatchObject({ account: 'acme', email: 'kim@example.com' });
    expect(await auth.resolve(sessionId)).toBeNull();
    expect(await auth.inviteEmail(pending.token)).toBeNull();
    expect((await auth.signIn('kim@example.com', PASSWORD, '10.0.0.3')).ok).toBe(false);
    expect(await auth.users('acme')).toEqual([]);
    await expect(auth.remove('kim@example.com')).rejects.toThrow(/no user with email 'kim@example.com'; see 'faithscreen users list'/);
    expect((await auth.invite('globex', 'kim@example.com')).new_user).toBe(true);
  });

  it('when failures age out and sessions expire, then their rows are dropped (the tables do not grow without bound)', async () => {
    const auth = authOn(db);
    const count = async (table: string) => Number((await db.get<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`))?.n);
    const stale = await userWithPassword(auth, 'acme', 'ivy@example.com');
    await auth.signIn('ivy@example.com', 'wrong password one', '10.0.0.9');
    expect(await count('sign_in_failures')).toBe(2); // one row for the email, one for the address
    clock += 15 * 60_000;
    await auth.signIn('ivy@example.com', 'wrong password two', '10.0.0.9');
    expect(await count('sign_in_failures')).toBe(2); // the first pair aged out and was dropped
    expect(await count('account_sessions')).toBe(1);
    clock += 2 * 3_600_000;
    expect((await auth.signIn('ivy@example.com', PASSWORD, '10.0.0.9')).ok).toBe(true);
    expect(await count('account_sessions')).toBe(1); // the idle one went, the new one is there
    expect(await auth.resolve(stale)).toBeNull();
  });

  it('when a session is idle for 2 hours or 12 hours old, then it has ended; sign-out ends it at once', async () => {
    const auth = authOn(db);
    const sessionId = await userWithPassword(auth, 'acme', 'gus@example.com');
    expect(JSON.stringify(await db.all('SELECT * FROM account_sessions'))).not.toContain(sessionId);
    expect(await auth.resolve(sessionId)).toMatchObject({ accountId: 'acme', email: 'gus@example.com' });
    clock += 2 * HOUR;
    expect(await auth.resolve(sessionId)).toBeNull();

    const busy = await auth.signIn('gus@example.com', PASSWORD, '10.0.0.2');
    if (!busy.ok) throw new Error('sign-in failed');
    expect(busy.sessionId).not.toBe(sessionId);
    for (let hours = 0; hours < 11; hours += 1) {
      clock += HOUR;
      expect(await auth.resolve(busy.sessionId), `${hours + 1} hours after sign-in`).not.toBeNull();
    }
    clock += HOUR; // past 12 hours since sign-in, though used within the last 2
    expect(await auth.resolve(busy.sessionId)).toBeNull();

    const fresh = await auth.signIn('gus@example.com', PASSWORD, '10.0.0.2');
    if (!fresh.ok) throw new Error('sign-in failed');
    await auth.signOut(fresh.sessionId);
    expect(await auth.resolve(fresh.sessionId)).toBeNull();
    expect(await auth.resolve('garbage')).toBeNull();
  });

  it('when a user changes the password, then the current one is required and every earlier session ends', async () => {
    const auth = authOn(db);
    const first = await userWithPassword(auth, 'acme', 'hal@example.com');
    const second = await auth.signIn('hal@example.com', PASSWORD, '10.0.0.3');
    if (!second.ok) throw new Error('sign-in failed');
    expect(await auth.changePassword(first, 'not my password', 'a brand new passphrase', '10.0.0.3')).toMatchObject({
      ok: false,
      reason: 'wrong_password',
    });
    expect(await auth.changePassword(first, PASSWORD, 'short', '10.0.0.3')).toMatchObject({ reason: 'weak_password' });
    expect(await auth.changePassword(first, PASSWORD, PASSWORD, '10.0.0.3')).toMatchObject({ reason: 'weak_password' });
    const changed = await auth.changePassword(first, PASSWORD, 'a brand new passphrase', '10.0.0.3');
    if (!changed.ok) throw new Error(changed.message);
    expect(await auth.resolve(first)).toBeNull();
    expect(await auth.resolve(second.sessionId)).toBeNull();
    expect(await auth.resolve(changed.sessionId)).toMatchObject({ email: 'hal@example.com' });
    expect((await auth.signIn('hal@example.com', PASSWORD, '10.0.0.3')).ok).toBe(false);
    expect((await auth.signIn('hal@example.com', 'a brand new passphrase', '10.0.0.3')).ok).toBe(true);
    expect(await auth.changePassword('gone', PASSWORD, 'whatever whatever', '10.0.0.3')).toMatchObject({ reason: 'invalid_link' });
  });
});
