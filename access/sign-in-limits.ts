import { createHmac } from 'node:crypto';

/**
 * Failed sign-ins counted per email from one client address, and per client address, in the
 * service state so every API process sees the same counts (docs/access.md, "Sign-in limits").
 * An attempt is recorded before its password is checked, in one transaction with the count, so
 * concurrent attempts cannot all pass; a success takes its record back (only failures count).
 * Keyed on the email and the address together, a stranger's failures never lock a user out
 * from the user's own address.
 */
export interface SignInLimit {
  /** Failures allowed in any window of `windowMs`; the next attempt is refused until one ages out. */
  failures: number;
  windowMs: number;
}

export interface SignInLimits {
  /** Failures for one email from one client address. */
  perEmailAndAddress: SignInLimit;
  /** Failures from one client address, whatever the email. */
  perAddress: SignInLimit;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perEmailAndAddress: { failures: 5, windowMs: 15 * 60_000 },
  perAddress: { failures: 20, windowMs: 15 * 60_000 },
};

/** The subjects an attempt counts against, and the limit of each. */
export interface AttemptRule {
  subject: string;
  limit: SignInLimit;
}

/**
 * The counters of an attempt. The email is kept only inside an HMAC under the server's secret,
 * so a copy of the state does not reveal which addresses were typed, nor lets anyone test guesses.
 */
export function attemptRules(key: Buffer, limits: SignInLimits, email: string, address: string): AttemptRule[] {
  const pair = createHmac('sha256', key).update(`${email}\n${address}`, 'utf8').digest('hex');
  return [
    { subject: `pair:${pair}`, limit: limits.perEmailAndAddress },
    { subject: `ip:${address}`, limit: limits.perAddress },
  ];
}

/** The HMAC key of the counters, derived from the API-key hash secret so there is no second secret file. */
export function signInKeyFrom(hashSecret: Buffer): Buffer {
  return createHmac('sha256', hashSecret).update('faithscreen sign-in limits', 'utf8').digest();
}

/** Seconds until a subject at `count` failures, the oldest at `oldestMs`, may try again; null when it may now. */
export function secondsUntilAllowed(limit: SignInLimit, count: number, oldestMs: number | null, nowMs: number): number | null {
  if (count < limit.failures || oldestMs === null) return null;
  return Math.max(1, Math.ceil((oldestMs + limit.windowMs - nowMs) / 1000));
}
