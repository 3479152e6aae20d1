import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../common/app-error.ts';

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
/**
 * At most this many wait for one: beyond, a check is refused at once (503 with Retry-After)
 * rather than queued behind a flood, so a real user never waits minutes (docs/access.md, "Passwords").
 */
export const MAX_WAITING_CHECKS = 8;
let running = 0;
const waiting: Array<() => void> = [];
/** A recent check's duration in ms (moving average), for Retry-After. */
let typicalMs = 1_000;

/** The password-check queue is full: come back after `retryAfterSeconds`. */
export class PasswordChecksBusyError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(
      503,
      'sign_in_busy',
      `too many password checks are waiting; nothing was checked or counted, retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    );
    this.name = 'PasswordChecksBusyError';
  }
}

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) {
    if (waiting.length >= MAX_WAITING_CHECKS)
      throw new PasswordChecksBusyError(Math.max(1, Math.ceil((((waiting.length + running) / MAX_CONCURRENT) * typicalMs) / 1000)));
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running += 1;
  const started = performance.now();
  try {
    return await work();
  } finally {
    typicalMs = 0.8 * typicalMs + 0.2 * (performance.now() - started);
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
  const actual = await limited(async () => {
    try {
      return await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
    } catch {
      return null; // parameters scrypt refuses (not a power of two, too large): a corrupt hash
    }
  });
  return actual !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
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
