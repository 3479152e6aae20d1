import { randomBytes } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import type { AccessStore } from './access-store.ts';
import { AdminError } from './administration.ts';
import type { AccountUserRecord, AccountUserStore } from './account-user-store.ts';
import {
  DEFAULT_SCRYPT,
  hashPassword,
  PasswordChecksBusyError,
  passwordMatches as scryptMatches,
  passwordProblem,
  type ScryptParameters,
} from './password-hashing.ts';
import { newToken, TOKEN_SHAPE, tokenHash } from './secret-tokens.ts';
import { attemptRules, DEFAULT_SIGN_IN_LIMITS, type AttemptRule, type SignInLimits } from './sign-in-limits.ts';

/**
 * Account users: operators invite them, they set a password on a one-time link, sign in to a
 * session, change their password and sign out (docs/access.md, "Account users and sign-in").
 * Every rule lives here; the HTTP layer (api/account/) only parses forms and renders pages.
 */

export interface AccountAuthOptions {
  store: AccountUserStore;
  accessStore: AccessStore;
  now?: () => number;
  /** A session unused this long ends (default 2 hours). */
  sessionIdleMs?: number;
  /** A session ends this long after sign-in, however busy (default 12 hours). */
  sessionAbsoluteMs?: number;
  /** A set-password link works this long (default 72 hours). */
  inviteTtlMs?: number;
  limits?: SignInLimits;
  /**
   * Keys the sign-in counters' HMAC of email and address (signInKeyFrom, derived from the API-key
   * hash secret, so every process counts alike). Needed to sign in or change a password; the
   * CLI's invitations do without.
   */
  signInKey?: Buffer;
  scrypt?: ScryptParameters;
  /** The password check (default scrypt's passwordMatches); tests count its calls. */
  passwordMatches?: (password: string, stored: string) => Promise<boolean>;
  /** How long a refused or failed sign-in keeps its client address busy before it is answered (default 1 s). */
  failureDelayMs?: number;
}

/** Who is signed in: what `requireAccountSession` puts on the request (plus the form token). */
export interface AccountSession {
  accountId: string;
  userId: string;
  email: string;
}

export interface Invitation {
  user_id: string;
  account: string;
  email: string;
  /** True when the user was created by this invitation, false when it renews an existing user's link. */
  new_user: boolean;
  /** The one-time token; shown to the operator once, stored only as a hash. */
  token: string;
  expires_at: string;
}

export type SignInOutcome =
  | { ok: true; sessionId: string; session: AccountSession }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'rate_limited'; retryAfterSeconds: number }
  /** Another sign-in from the same client address is being checked (429). */
  | { ok: false; reason: 'in_flight'; retryAfterSeconds: number }
  /** The password-check queue is full (503); nothing was checked or counted. */
  | { ok: false; reason: 'busy'; retryAfterSeconds: number };

export type PasswordOutcome =
  | { ok: true; sessionId: string; session: AccountSession }
  | { ok: false; reason: 'invalid_link' | 'wrong_password' | 'weak_password'; message: string }
  | { ok: false; reason: 'rate_limited'; message: string; retryAfterSeconds: number };

const HOUR = 3_600_000;
/** A refused or failed sign-in is answered after this long (docs/access.md, "Sign-in limits"). */
export const DEFAULT_FAILURE_DELAY_MS = 1_000;
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;
/** A session's last-seen time is written at most this often (not on every page view). */
const TOUCH_EVERY_MS = 60_000;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function newUserId(): string {
  return `usr_${randomBytes(9).toString('base64url')}`;
}

const sessionOf = (user: AccountUserRecord): AccountSession => ({ accountId: user.account, userId: user.userId, email: user.email });

export class AccountAuth {
  readonly store: AccountUserStore;
  private readonly accessStore: AccessStore;
  private readonly now: () => number;
  readonly sessionIdleMs: number;
  readonly sessionAbsoluteMs: number;
  private readonly inviteTtlMs: number;
  private readonly limits: SignInLimits;
  private readonly signInKey: Buffer | undefined;
  /** Client addresses with a sign-in being checked in this process: one at a time each. */
  private readonly inFlight = new Set<string>();
  /** Counters the store found at their limit, and until when (ms): refused again from memory, sparing the store a flood's writes. */
  private readonly blockedUntil = new Map<string, number>();
  private readonly scrypt: ScryptParameters;
  private readonly passwordMatches: (password: string, stored: string) => Promise<boolean>;
  /** How long a refused or failed sign-in keeps its address busy before it is answered. */
  readonly failureDelayMs: number;
  /** Checked instead when the email has no password, so an unknown email costs the same time as a wrong password. */
  private dummyHash: Promise<string> | undefined;

  constructor(options: AccountAuthOptions) {
    this.store = options.store;
    this.accessStore = options.accessStore;
    this.now = options.now ?? Date.now;
    this.sessionIdleMs = options.sessionIdleMs ?? 2 * HOUR;
    this.sessionAbsoluteMs = options.sessionAbsoluteMs ?? 12 * HOUR;
    this.inviteTtlMs = options.inviteTtlMs ?? 72 * HOUR;
    this.limits = options.limits ?? DEFAULT_SIGN_IN_LIMITS;
    this.signInKey = options.signInKey;
    this.scrypt = options.scrypt ?? DEFAULT_SCRYPT;
    this.passwordMatches = options.passwordMatches ?? scryptMatches;
    this.failureDelayMs = options.failureDelayMs ?? DEFAULT_FAILURE_DELAY_MS;
  }

  /** Computes the stand-in hash now, so that the first unknown email is not slower than a wrong password. */
  async prepare(): Promise<void> {
    await this.dummy();
  }

  /**
   * Creates the user (or finds it in the same account) and a one-time set-password link. For an
   * existing user this is also the password reset: the user's earlier links stop working when
   * the new one is used.
   */
  async invite(account: string, email: string, ttlMs = this.inviteTtlMs): Promise<Invitation> {
    const address = normaliseEmail(email);
    if (address.length > 254 || !EMAIL.test(address)) throw new AdminError(`'${email}' is not an email address; expected name@example.com`);
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new AdminError('the link must be valid for a positive number of hours');
    if (!(await this.accessStore.account(account))) throw new AdminError(`no account named '${account}'; see 'faithscreen accounts list'`);
    const now = new Date(this.now());
    let user = await this.store.userByEmail(address);
    if (user && user.account !== account)
      throw new AdminError(`${address} is already a user of another account; one email signs in to one account`);
    const newUser = user === undefined;
    if (!user) {
      await this.store.insertUser({ userId: newUserId(), account, email: address, createdAt: now.toISOString() });
      user = (await this.store.userByEmail(address))!;
    }
    const token = newToken();
    const expiresAtMs = now.getTime() + ttlMs;
    await this.store.insertInvite(tokenHash(token), user.userId, now, expiresAtMs);
    return { user_id: user.userId, account, email: address, new_user: newUser, token, expires_at: new Date(expiresAtMs).toISOString() };
  }

  /**
   * Removes a user: signed-in sessions end at their next request and unused links stop working.
   * The account and its keys stay; the email may be invited again.
   */
  async remove(email: string): Promise<{ user_id: string; account: string; email: string }> {
    const address = normaliseEmail(email);
    const user = await this.store.userByEmail(address);
    if (!user) throw new AdminError(`no user with email '${address}'; see 'faithscreen users list'`);
    await this.store.deleteUser(user.userId);
    return { user_id: user.userId, account: user.account, email: user.email };
  }

  async users(
    account?: string,
  ): Promise<Array<{ user_id: string; account: string; email: string; password_set_at: string | null; created_at: string }>> {
    if (account !== undefined && !(await this.accessStore.account(account)))
      throw new AdminError(`no account named '${account}'; see 'faithscreen accounts list'`);
    return (await this.store.users(account)).map((u) => ({
      user_id: u.userId,
      account: u.account,
      email: u.email,
      password_set_at: u.passwordSetAt,
      created_at: u.createdAt,
    }));
  }

  /** The email a set-password link is for, or null when the link is unknown, used or expired (one answer for all three). */
  async inviteEmail(token: string): Promise<string | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const invite = await this.store.invite(tokenHash(token));
    if (!invite || invite.usedAt !== null || invite.expiresAtMs <= this.now()) return null;
    return (await this.store.user(invite.userId))?.email ?? null;
  }

  /** Sets the password on a one-time link and signs the user in; the link is spent. */
  async setPasswordWithInvite(token: string, password: string): Promise<PasswordOutcome> {
    const invalid = {
      ok: false,
      reason: 'invalid_link',
      message: 'this link is not valid: it has expired or was already used. Ask your operator for a new one.',
    } as const;
    if (!TOKEN_SHAPE.test(token)) return invalid;
    const invite = await this.store.invite(tokenHash(token));
    const user = invite && (await this.store.user(invite.userId));
    if (!invite || !user || invite.usedAt !== null || invite.expiresAtMs <= this.now()) return invalid;
    const problem = passwordProblem(password, user.email);
    if (problem) return { ok: false, reason: 'weak_password', message: problem };
    const hash = await hashPassword(password, this.scrypt);
    if (!(await this.store.redeemInvite(tokenHash(token), user.userId, hash, new Date(this.now())))) return invalid;
    return this.startSession(user);
  }

  /**
   * Checks an email and password; the same answer, after the same work, for an unknown email and
   * a wrong password. `address` is the client's (api/client-address.ts): one sign-in at a time
   * each, and the limits count per address and per email from that address.
   */
  /** True while a sign-in from `address` is being checked in this process (the HTTP layer refuses a second one before reading it). */
  signingIn(address: string): boolean {
    return this.inFlight.has(address);
  }

  async signIn(email: string, password: string, address: string): Promise<SignInOutcome> {
    if (this.inFlight.has(address)) return { ok: false, reason: 'in_flight', retryAfterSeconds: 1 };
    this.inFlight.add(address);
    try {
      const outcome = await this.checkSignIn(normaliseEmail(email), password, address);
      // The address stays busy meanwhile, so a client with many requests in flight gets one
      // checked per delay and the rest refused before their forms are read.
      if (!outcome.ok) await this.failureDelay();
      return outcome;
    } finally {
      this.inFlight.delete(address);
    }
  }

  /**
   * Waits the failure delay, spread over up to half as long again at random, so that a flood's
   * refusals do not all fall due in the same turn of the event loop.
   */
  async failureDelay(): Promise<void> {
    if (this.failureDelayMs > 0) await setTimeout(this.failureDelayMs * (1 + Math.random() / 2));
  }

  private async checkSignIn(address: string, password: string, client: string): Promise<SignInOutcome> {
    const nowMs = this.now();
    const rules = attemptRules(this.counterKey(), this.limits, address, client);
    const wait = await this.reserve(rules, nowMs);
    if (wait !== null) return { ok: false, reason: 'rate_limited', retryAfterSeconds: wait };
    let user: AccountUserRecord | undefined;
    let matches: boolean;
    try {
      user = await this.store.userByEmail(address);
      matches = await this.passwordMatches(password, user?.passwordHash ?? (await this.dummy()));
    } catch (error) {
      await this.store.releaseAttempt(rules, nowMs); // nothing was checked: the attempt does not count
      if (error instanceof PasswordChecksBusyError) return { ok: false, reason: 'busy', retryAfterSeconds: error.retryAfterSeconds ?? 1 };
      throw error;
    }
    if (!user || user.passwordHash === null || !matches) {
      // Failures that no longer count are dropped as new ones arrive, so a flood cannot grow the table.
      await this.store.deleteFailuresBefore(nowMs - this.longestWindowMs());
      return { ok: false, reason: 'invalid' };
    }
    await this.store.releaseAttempt(rules, nowMs);
    await this.store.deleteExpiredSessions(nowMs - this.sessionIdleMs, nowMs - this.sessionAbsoluteMs);
    return this.startSession(user);
  }

  /**
   * Records the attempt, or says how many seconds to wait. A counter the store found at its
   * limit stays refused from memory until the time the store gave, since failures only age out
   * by then; so a flood from one address costs one store write per window, not one per request.
   */
  private async reserve(rules: readonly AttemptRule[], nowMs: number): Promise<number | null> {
    const remembered = Math.max(0, ...rules.map((rule) => (this.blockedUntil.get(rule.subject) ?? 0) - nowMs));
    if (remembered > 0) return Math.max(1, Math.ceil(remembered / 1000));
    const blocked = await this.store.reserveAttempt(rules, nowMs);
    if (blocked.length === 0) return null;
    if (this.blockedUntil.size >= 10_000) this.blockedUntil.clear(); // bounded under many sources
    for (const { subject, seconds } of blocked) this.blockedUntil.set(subject, nowMs + seconds * 1000);
    return Math.max(...blocked.map((b) => b.seconds));
  }

  private counterKey(): Buffer {
    if (!this.signInKey) throw new Error('AccountAuth was built without signInKey, so it cannot count sign-in attempts');
    return this.signInKey;
  }

  private longestWindowMs(): number {
    return Math.max(this.limits.perEmailAndAddress.windowMs, this.limits.perAddress.windowMs);
  }

  /** The signed-in user of a session id, or null when the session is unknown or expired (it is then deleted). */
  async resolve(sessionId: string): Promise<AccountSession | null> {
    if (!TOKEN_SHAPE.test(sessionId)) return null;
    const hash = tokenHash(sessionId);
    const session = await this.store.session(hash);
    if (!session) return null;
    const nowMs = this.now();
    if (nowMs - session.lastSeenAtMs >= this.sessionIdleMs || nowMs - session.createdAtMs >= this.sessionAbsoluteMs) {
      await this.store.deleteSession(hash);
      return null;
    }
    const user = await this.store.user(session.userId);
    if (!user) return null;
    if (nowMs - session.lastSeenAtMs >= TOUCH_EVERY_MS) await this.store.touchSession(hash, nowMs);
    return sessionOf(user);
  }

  async signOut(sessionId: string): Promise<void> {
    if (TOKEN_SHAPE.test(sessionId)) await this.store.deleteSession(tokenHash(sessionId));
  }

  /**
   * Changes the password of a signed-in user who knows the current one. Every session of the
   * user ends, this one included; the caller gets a new session id (rotation).
   */
  async changePassword(sessionId: string, current: string, next: string, ip: string): Promise<PasswordOutcome> {
    const session = await this.resolve(sessionId);
    const user = session && (await this.store.user(session.userId));
    if (!user || user.passwordHash === null) return { ok: false, reason: 'invalid_link', message: 'your session has ended; sign in again' };
    const nowMs = this.now();
    const rules: AttemptRule[] = attemptRules(this.counterKey(), this.limits, user.email, ip);
    const wait = await this.reserve(rules, nowMs);
    if (wait !== null)
      return {
        ok: false,
        reason: 'rate_limited',
        message: `too many wrong passwords; try again in ${wait} s`,
        retryAfterSeconds: wait,
      };
    let matches: boolean;
    try {
      matches = await this.passwordMatches(current, user.passwordHash);
    } catch (error) {
      await this.store.releaseAttempt(rules, nowMs);
      throw error; // a full check queue answers 503 with Retry-After
    }
    if (!matches) return { ok: false, reason: 'wrong_password', message: 'the current password is not right' };
    await this.store.releaseAttempt(rules, nowMs);
    const problem = passwordProblem(next, user.email);
    if (problem) return { ok: false, reason: 'weak_password', message: problem };
    if (next === current) return { ok: false, reason: 'weak_password', message: 'the new password must differ from the current one' };
    await this.store.setPassword(user.userId, await hashPassword(next, this.scrypt), new Date(nowMs));
    await this.store.deleteSessionsOf(user.userId);
    return this.startSession(user);
  }

  private async startSession(user: AccountUserRecord): Promise<{ ok: true; sessionId: string; session: AccountSession }> {
    const sessionId = newToken();
    await this.store.insertSession(tokenHash(sessionId), user.userId, this.now());
    return { ok: true, sessionId, session: sessionOf(user) };
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(newToken(), this.scrypt);
    return this.dummyHash;
  }
}
