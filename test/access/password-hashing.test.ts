import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT, hashPassword, passwordMatches, passwordProblem } from '../../access/password-hashing.ts';

describe('password hashing with scrypt', () => {
  it('when a password is hashed with the production parameters, then the hash names them, is salted and checks only that password', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(DEFAULT_SCRYPT).toEqual({ N: 32_768, r: 8, p: 3 });
    expect(first).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first); // a fresh salt each time
    expect(await passwordMatches('correct horse battery staple', first)).toBe(true);
    expect(await passwordMatches('correct horse battery stapler', first)).toBe(false);
  });

  it('when a hash was made with other parameters, then it still checks with its own', async () => {
    const older = await hashPassword('an older password here', { N: 1024, r: 8, p: 1 });
    expect(older.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await passwordMatches('an older password here', older)).toBe(true);
  });

  it('when the stored hash is malformed or another scheme, then nothing matches', async () => {
    for (const stored of [
      '',
      'plain-text-password',
      'bcrypt$2b$10$abc',
      'scrypt$1024$8$1$c2FsdA',
      'scrypt$1000$8$1$c2FsdA$aGFzaA',
      'scrypt$x$8$1$c2FsdA$aGFzaA',
    ]) {
      expect(await passwordMatches('plain-text-password', stored), stored).toBe(false);
    }
  });

  it('when a new password is too short, too long or the email, then the problem says what is valid', () => {
    expect(passwordProblem('elevenchars', 'a@example.com')).toMatch(/at least 12 characters/);
    expect(passwordProblem('twelve chars', 'a@example.com')).toBeNull();
    expect(passwordProblem('é'.repeat(256), 'a@example.com')).toBeNull();
    expect(passwordProblem('é'.repeat(257), 'a@example.com')).toMatch(/at most 256 characters/);
    expect(passwordProblem(' Long.Name@Example.com ', 'long.name@example.com')).toMatch(/must not be your email/);
  });
});
