import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFaithscreen } from '../api/support/attest-fixture.ts';
import { makeTempDir } from '../support/temp-dir.ts';

describe('faithscreen users invite and users list on a DATA_DIR', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-users-cli-');
    const created = await runFaithscreen(temp.dir, ['accounts', 'create', 'acme', '--tier', 'pro']);
    if (created.code !== 0) throw new Error(created.stderr);
  });
  afterAll(() => temp?.cleanup());

  it('when a user is invited, then a one-time link is printed once, and the list shows the user without any secret', async () => {
    const invited = await runFaithscreen(temp.dir, ['users', 'invite', '--account', 'acme', '--email', 'Ada@Example.com', '--json']);
    expect(invited.code).toBe(0);
    const printed = JSON.parse(invited.stdout) as Record<string, string | boolean>;
    expect(printed).toMatchObject({ account: 'acme', email: 'ada@example.com', new_user: true });
    expect(printed.link).toMatch(/\/account\/set-password#token=[A-Za-z0-9_-]{43}$/); // in the fragment: never sent, never logged
    expect(Date.parse(String(printed.expires_at)) - Date.now()).toBeGreaterThan(71 * 3_600_000);
    const token = String(printed.link).split('token=')[1]!;

    const renewed = await runFaithscreen(temp.dir, [
      'users',
      'invite',
      '--account',
      'acme',
      '--email',
      'ada@example.com',
      '--expires-in-hours',
      '2',
    ]);
    expect(renewed.code).toBe(0);
    expect(renewed.stdout).toMatch(/sets the password of an existing user of account 'acme', works once, and expires /);

    const listed = await runFaithscreen(temp.dir, ['users', 'list', '--account', 'acme']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        user_id: expect.stringMatching(/^usr_/),
        account: 'acme',
        email: 'ada@example.com',
        password_set_at: null,
        created_at: expect.any(String),
      },
    ]);
    expect(listed.stdout).not.toContain(token);
  });

  it('when the account, the email or the hours are wrong, then it exits non-zero saying what is valid', async () => {
    const noAccount = await runFaithscreen(temp.dir, ['users', 'invite', '--account', 'nobody', '--email', 'a@example.com']);
    expect(noAccount.code).toBe(1);
    expect(noAccount.stderr).toMatch(/no account named 'nobody'/);
    const badEmail = await runFaithscreen(temp.dir, ['users', 'invite', '--account', 'acme', '--email', 'not-an-email']);
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toMatch(/not an email address; expected name@example.com/);
    const badHours = await runFaithscreen(temp.dir, [
      'users',
      'invite',
      '--account',
      'acme',
      '--email',
      'b@example.com',
      '--expires-in-hours',
      '0',
    ]);
    expect(badHours.code).not.toBe(0);
    expect(badHours.stderr).toMatch(/whole number of hours from 1 to 720/);
    const listUnknown = await runFaithscreen(temp.dir, ['users', 'list', '--account', 'nobody']);
    expect(listUnknown.code).toBe(1);
    const removeUnknown = await runFaithscreen(temp.dir, ['users', 'remove', '--email', 'nobody@example.com']);
    expect(removeUnknown.code).toBe(1);
    expect(removeUnknown.stderr).toMatch(/no user with email 'nobody@example.com'/);
  });

  it('when a user is removed, then the list no longer shows them', async () => {
    expect((await runFaithscreen(temp.dir, ['users', 'invite', '--account', 'acme', '--email', 'leo@example.com'])).code).toBe(0);
    const removed = await runFaithscreen(temp.dir, ['users', 'remove', '--email', 'leo@example.com']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(/^removed leo@example.com \(usr_[^)]+\) from account 'acme'/);
    const listed = await runFaithscreen(temp.dir, ['users', 'list', '--account', 'acme']);
    expect((JSON.parse(listed.stdout) as Array<{ email: string }>).map((u) => u.email)).not.toContain('leo@example.com');
  });
});
