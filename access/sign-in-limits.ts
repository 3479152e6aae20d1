import type { AccountUserStore } from './account-user-store.ts';
import { tokenHash } from './secret-tokens.ts';

/**
 * Failed sign-ins counted per user (by email, known or not) and per client address, in the
 * service state so every API process sees the same counts (docs/access.md, "Sign-in limits").
 * Only failures count: a user who signs in is never locked out by their own successes.
 */
export interface SignInLimit {
  /** Failures allowed in any window of `windowMs`; the next attempt is refused until one ages out. */
  failures: number;
  windowMs: number;
}

export interface SignInLimits {
  perEmail: SignInLimit;
  perIp: SignInLimit;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perEmail: { failures: 5, windowMs: 15 * 60_000 },
  perIp: { failures: 20, windowMs: 15 * 60_000 },
};

/** The subjects an attempt counts against; the email only as a hash, so typed addresses of non-users are not kept. */
export function attemptSubjects(email: string, ip: string): { email: string; ip: string } {
  return { email: `email:${tokenHash(email)}`, ip: `ip:${ip}` };
}

/** Seconds until the attempt may be tried again, or null when it may be tried now. */
export async function secondsUntilAllowed(
  store: AccountUserStore,
  limits: SignInLimits,
  subjects: { email: string; ip: string },
  nowMs: number,
): Promise<number | null> {
  let wait: number | null = null;
  for (const [subject, limit] of [
    [subjects.email, limits.perEmail],
    [subjects.ip, limits.perIp],
  ] as const) {
    const { count, oldestMs } = await store.failuresSince(subject, nowMs - limit.windowMs);
    if (count >= limit.failures && oldestMs !== null) {
      const seconds = Math.max(1, Math.ceil((oldestMs + limit.windowMs - nowMs) / 1000));
      wait = Math.max(wait ?? 0, seconds);
    }
  }
  return wait;
}
