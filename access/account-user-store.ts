import type { ServiceDb } from '../service-state/db.ts';
import { recordOf } from '../service-state/row-names.ts';
import { secondsUntilAllowed, type AttemptRule } from './sign-in-limits.ts';

/**
 * Account users, set-password links, sessions and failed sign-in attempts in the service state
 * (service-state/migrations/004-account-users.ts). Plain SQL, no policy: access/account-users.ts
 * decides. Tokens arrive here already hashed.
 */

export interface AccountUserRecord {
  userId: string;
  account: string;
  email: string;
  passwordHash: string | null;
  createdAt: string;
  passwordSetAt: string | null;
}

export interface InviteRecord {
  userId: string;
  createdAt: string;
  expiresAtMs: number;
  usedAt: string | null;
}

export interface SessionRecord {
  userId: string;
  createdAtMs: number;
  lastSeenAtMs: number;
}

interface UserRow {
  user_id: string;
  account: string;
  email: string;
  password_hash: string | null;
  created_at: string;
  password_set_at: string | null;
}

const USER_COLUMNS = 'user_id, account, email, password_hash, created_at, password_set_at';

export class AccountUserStore {
  constructor(readonly db: ServiceDb) {}

  async userByEmail(email: string): Promise<AccountUserRecord | undefined> {
    const row = await this.db.get<UserRow>(`SELECT ${USER_COLUMNS} FROM account_users WHERE email = ?`, [email]);
    return row ? recordOf(row) : undefined;
  }

  async user(userId: string): Promise<AccountUserRecord | undefined> {
    const row = await this.db.get<UserRow>(`SELECT ${USER_COLUMNS} FROM account_users WHERE user_id = ?`, [userId]);
    return row ? recordOf(row) : undefined;
  }

  async users(account?: string): Promise<AccountUserRecord[]> {
    const rows = account
      ? await this.db.all<UserRow>(`SELECT ${USER_COLUMNS} FROM account_users WHERE account = ? ORDER BY email`, [account])
      : await this.db.all<UserRow>(`SELECT ${USER_COLUMNS} FROM account_users ORDER BY account, email`);
    return rows.map((row) => recordOf(row));
  }

  async insertUser(user: Pick<AccountUserRecord, 'userId' | 'account' | 'email' | 'createdAt'>): Promise<void> {
    await this.db.run(
      'INSERT INTO account_users (user_id, account, email, password_hash, created_at, password_set_at) VALUES (?, ?, ?, NULL, ?, NULL)',
      [user.userId, user.account, user.email, user.createdAt],
    );
  }

  async setPassword(userId: string, passwordHash: string, at: Date): Promise<void> {
    await this.db.run('UPDATE account_users SET password_hash = ?, password_set_at = ? WHERE user_id = ?', [
      passwordHash,
      at.toISOString(),
      userId,
    ]);
  }

  async insertInvite(tokenHash: string, userId: string, createdAt: Date, expiresAtMs: number): Promise<void> {
    await this.db.run('INSERT INTO account_invites (token_hash, user_id, created_at, expires_at_ms, used_at) VALUES (?, ?, ?, ?, NULL)', [
      tokenHash,
      userId,
      createdAt.toISOString(),
      expiresAtMs,
    ]);
  }

  async invite(tokenHash: string): Promise<InviteRecord | undefined> {
    const row = await this.db.get<{ user_id: string; created_at: string; expires_at_ms: number | string; used_at: string | null }>(
      'SELECT user_id, created_at, expires_at_ms, used_at FROM account_invites WHERE token_hash = ?',
      [tokenHash],
    );
    return row
      ? { userId: row.user_id, createdAt: row.created_at, expiresAtMs: Number(row.expires_at_ms), usedAt: row.used_at }
      : undefined;
  }

  /**
   * Spends a link and sets the password in one transaction: of two requests with the same link,
   * exactly one sets the password. False when the link was already used or has expired.
   */
  async redeemInvite(tokenHash: string, userId: string, passwordHash: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const spent = await tx.run('UPDATE account_invites SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at_ms > ?', [
        now.toISOString(),
        tokenHash,
        now.getTime(),
      ]);
      if (spent !== 1) return false;
      await tx.run('UPDATE account_users SET password_hash = ?, password_set_at = ? WHERE user_id = ?', [
        passwordHash,
        now.toISOString(),
        userId,
      ]);
      // A password set by link ends every session and every other link of the user.
      await tx.run('DELETE FROM account_sessions WHERE user_id = ?', [userId]);
      await tx.run('UPDATE account_invites SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now.toISOString(), userId]);
      return true;
    });
  }

  async insertSession(sessionHash: string, userId: string, nowMs: number): Promise<void> {
    await this.db.run('INSERT INTO account_sessions (session_hash, user_id, created_at_ms, last_seen_at_ms) VALUES (?, ?, ?, ?)', [
      sessionHash,
      userId,
      nowMs,
      nowMs,
    ]);
  }

  async session(sessionHash: string): Promise<SessionRecord | undefined> {
    const row = await this.db.get<{ user_id: string; created_at_ms: number | string; last_seen_at_ms: number | string }>(
      'SELECT user_id, created_at_ms, last_seen_at_ms FROM account_sessions WHERE session_hash = ?',
      [sessionHash],
    );
    return row ? { userId: row.user_id, createdAtMs: Number(row.created_at_ms), lastSeenAtMs: Number(row.last_seen_at_ms) } : undefined;
  }

  async touchSession(sessionHash: string, nowMs: number): Promise<void> {
    await this.db.run('UPDATE account_sessions SET last_seen_at_ms = ? WHERE session_hash = ?', [nowMs, sessionHash]);
  }

  /** Removes a user with its sessions and links, in one transaction. */
  async deleteUser(userId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM account_sessions WHERE user_id = ?', [userId]);
      await tx.run('DELETE FROM account_invites WHERE user_id = ?', [userId]);
      await tx.run('DELETE FROM account_users WHERE user_id = ?', [userId]);
    });
  }

  async deleteSession(sessionHash: string): Promise<void> {
    await this.db.run('DELETE FROM account_sessions WHERE session_hash = ?', [sessionHash]);
  }

  /** Ends every session of the user but `keep` (the one changing its password), if given. */
  async deleteSessionsOf(userId: string, keep?: string): Promise<number> {
    return keep === undefined
      ? this.db.run('DELETE FROM account_sessions WHERE user_id = ?', [userId])
      : this.db.run('DELETE FROM account_sessions WHERE user_id = ? AND session_hash <> ?', [userId, keep]);
  }

  /** Drops sessions idle since before `idleCutoffMs` or created before `absoluteCutoffMs`. */
  async deleteExpiredSessions(idleCutoffMs: number, absoluteCutoffMs: number): Promise<number> {
    return this.db.run('DELETE FROM account_sessions WHERE last_seen_at_ms < ? OR created_at_ms < ?', [idleCutoffMs, absoluteCutoffMs]);
  }

  /**
   * Records an attempt against every rule's subject, in one transaction with the count that
   * allows it: of any number of concurrent attempts, at most each limit's worth are recorded.
   * Returns the subjects whose limit is reached, each with the seconds until it may try again
   * (then nothing is recorded); an empty list when the attempt was recorded.
   */
  async reserveAttempt(rules: readonly AttemptRule[], nowMs: number): Promise<Array<{ subject: string; seconds: number }>> {
    const ordered = [...rules].sort((a, b) => (a.subject < b.subject ? -1 : 1)); // one lock order for every process
    return this.db.transaction(async (tx) => {
      for (const { subject } of ordered) await tx.lock(`sign-in:${subject}`);
      const blocked: Array<{ subject: string; seconds: number }> = [];
      for (const { subject, limit } of ordered) {
        const row = await tx.get<{ n: number | string; oldest: number | string | null }>(
          'SELECT count(*) AS n, min(failed_at_ms) AS oldest FROM sign_in_failures WHERE subject = ? AND failed_at_ms > ?',
          [subject, nowMs - limit.windowMs],
        );
        const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
        const seconds = secondsUntilAllowed(limit, Number(row?.n ?? 0), oldest, nowMs);
        if (seconds !== null) blocked.push({ subject, seconds });
      }
      if (blocked.length > 0) return blocked;
      for (const { subject } of ordered)
        await tx.run('INSERT INTO sign_in_failures (subject, failed_at_ms) VALUES (?, ?)', [subject, nowMs]);
      return [];
    });
  }

  /** Takes back one attempt recorded at `atMs` for each rule (a success, or a check that never ran). */
  async releaseAttempt(rules: readonly AttemptRule[], atMs: number): Promise<void> {
    // One row, not every row of that millisecond: SQLite names a row by rowid, PostgreSQL by ctid.
    const rowId = this.db.engine === 'postgres' ? 'ctid' : 'rowid';
    await this.db.transaction(async (tx) => {
      for (const { subject } of rules)
        await tx.run(
          `DELETE FROM sign_in_failures WHERE ${rowId} = (SELECT ${rowId} FROM sign_in_failures WHERE subject = ? AND failed_at_ms = ? LIMIT 1)`,
          [subject, atMs],
        );
    });
  }

  async deleteFailuresBefore(cutoffMs: number): Promise<number> {
    return this.db.run('DELETE FROM sign_in_failures WHERE failed_at_ms <= ?', [cutoffMs]);
  }
}
