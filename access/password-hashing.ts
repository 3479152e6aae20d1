import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Account users' passwords, stored only as scrypt hashes (docs/access.md, "Passwords"). The
 * stored form names its own parameters (`scrypt$N$r$p$salt$hash`, base64url), so parameters
 * can be raised later without invalidating existing passwords.
 */
export interface ScryptParameters {
  /** CPU/memory cost, a power of two. */
  N: number;
  /** Block size. */
  r: number;
  /** Parallelisation. */
  p: number;
}

/**
 * One of the scrypt settings OWASP's password storage guidance lists as equivalent
 * (N=2^15, r=8, p=3 beside N=2^17, r=8, p=1): a quarter of the memory (32 MiB per check), so two
 * checks at once stay small. bench/sign-in.bench.ts measures both (docs/access.md, "Passwords").
 */
export const DEFAULT_SCRYPT: ScryptParameters = { N: 2 ** 15, r: 8, p: 3 };

const SALT_BYTES = 16;
const HASH_BYTES = 32;

function derive(password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> {
  // Node's default maxmem (32 MiB) is below what N=2^17, r=8 needs (128·N·r bytes).
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, HASH_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** At most this many hashes run at once, so a burst of sign-ins cannot take all memory. */
const MAX_CONCURRENT = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

export async function hashPassword(password: string, params: ScryptParameters = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await limited(() => derive(password, salt, params));
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Constant-time check of a password against its stored hash; a malformed hash never matches. */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  try {
    const actual = await limited(() => derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }));
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    return false; // parameters scrypt refuses (not a power of two, too large): a corrupt hash
  }
}

/** Rules for a new password; the message says what is valid. Null when acceptable. */
export function passwordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH)
    return `the password is too short: use at least ${PASSWORD_MIN_LENGTH} characters (a few unrelated words are easy to remember)`;
  if (length > PASSWORD_MAX_LENGTH) return `the password is too long: use at most ${PASSWORD_MAX_LENGTH} characters`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'the password must not be your email address';
  return null;
}

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
