import { randomBytes } from 'node:crypto';
import { pickRow, type ServiceDb, type SqlRunner } from '../service-state/db.ts';
import { readSecretFile, writeSecretFile } from './secret-files.ts';

export type SigningKeyStatus = 'active' | 'retired' | 'distrusted';

/** A signing key's public record (the secret is never part of it). */
export interface SigningKeyRecord {
  key_id: string;
  status: SigningKeyStatus;
  created_at: string;
  retired_at: string | null;
  distrusted_at: string | null;
  distrust_note: string | null;
}

const COLUMNS = ['key_id', 'status', 'created_at', 'retired_at', 'distrusted_at', 'distrust_note'] as const;
export const KEY_ID_PATTERN = /^sk_\d{8}_[0-9a-f]{8}$/;

/**
 * Held exclusively by key changes (first key, rotation, distrust) and shared by mints: a
 * certificate is never signed with a key that a committed distrust has withdrawn.
 */
export const SIGNING_KEYS_LOCK = 'signing-keys';

/** Raised for an operator's mistake (unknown key id, already distrusted); the CLI prints the message. */
export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

/**
 * Signing keys: metadata in the service state, secrets in files (see secret-files.ts). One key is
 * active and signs new certificates; `rotate` retires it (its certificates stay valid) and makes
 * a new one; `distrust` marks a key compromised (its certificates verify as unknown_signing_key).
 * Trust is read from the service state on every call, so the CLI's changes reach every running
 * API process at once.
 */
export class SigningKeys {
  private readonly secrets = new Map<string, Buffer>();

  constructor(
    private readonly db: ServiceDb,
    private readonly dataDir: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Every key, oldest first. */
  async list(sql: SqlRunner = this.db): Promise<SigningKeyRecord[]> {
    return (await sql.all(`SELECT ${COLUMNS.join(', ')} FROM signing_keys ORDER BY created_at, key_id`)).map((row) =>
      pickRow<SigningKeyRecord>(row, COLUMNS)!,
    );
  }

  async find(keyId: string, sql: SqlRunner = this.db): Promise<SigningKeyRecord | undefined> {
    return pickRow<SigningKeyRecord>(await sql.get(`SELECT ${COLUMNS.join(', ')} FROM signing_keys WHERE key_id = ?`, [keyId]), COLUMNS);
  }

  /** Makes the first key when there is none yet (so minting never has to create one mid-transaction). */
  async ensureActive(): Promise<void> {
    if (await this.active(this.db)) return;
    await this.db.transaction(async (tx) => {
      await tx.lock(SIGNING_KEYS_LOCK);
      if (!(await this.active(tx))) await this.createKey(tx);
    });
  }

  /**
   * The active key and its secret. Call inside the transaction that stores the certificate,
   * holding SIGNING_KEYS_LOCK shared, so a concurrent distrust or rotation cannot slip in between.
   */
  async activeForSigning(tx: SqlRunner): Promise<{ keyId: string; secret: Buffer }> {
    const active = await this.active(tx);
    if (!active) throw new Error('no active signing key; run faithscreen signing-keys rotate');
    const secret = this.secretOf(active.key_id);
    if (secret === undefined)
      throw new Error(`the secret file of active signing key ${active.key_id} is missing; run faithscreen signing-keys rotate`);
    return { keyId: active.key_id, secret };
  }

  /** The secret of `keyId` when the key is known and trusted (active or retired); undefined otherwise. */
  trustedSecret(keyId: string, status: SigningKeyStatus | null): Buffer | undefined {
    if (status !== 'active' && status !== 'retired') return undefined;
    return this.secretOf(keyId);
  }

  /** Retires the active key (if any) and makes a new active one. */
  rotate(): Promise<{ created: SigningKeyRecord; retired: SigningKeyRecord | null }> {
    return this.db.transaction(async (tx) => {
      await tx.lock(SIGNING_KEYS_LOCK);
      const active = await this.active(tx);
      if (active)
        await tx.run(`UPDATE signing_keys SET status = 'retired', retired_at = ? WHERE key_id = ?`, [this.stamp(), active.key_id]);
      const created = (await this.find(await this.createKey(tx), tx))!;
      return { created, retired: active ? (await this.find(active.key_id, tx))! : null };
    });
  }

  /** Marks a key compromised; distrusting the active key makes a new active one in the same transaction. */
  distrust(keyId: string, note: string | null): Promise<{ distrusted: SigningKeyRecord; replacement: SigningKeyRecord | null }> {
    return this.db.transaction(async (tx) => {
      await tx.lock(SIGNING_KEYS_LOCK);
      const key = await this.find(keyId, tx);
      if (!key)
        throw new SigningKeyError(
          `no signing key '${keyId}'; known keys: ${(await this.list(tx)).map((k) => k.key_id).join(', ') || 'none'}`,
        );
      if (key.status === 'distrusted') throw new SigningKeyError(`signing key ${keyId} was already distrusted on ${key.distrusted_at}`);
      await tx.run(`UPDATE signing_keys SET status = 'distrusted', distrusted_at = ?, distrust_note = ? WHERE key_id = ?`, [
        this.stamp(),
        note,
        keyId,
      ]);
      const replacement = key.status === 'active' ? (await this.find(await this.createKey(tx), tx))! : null;
      return { distrusted: (await this.find(keyId, tx))!, replacement };
    });
  }

  private async active(sql: SqlRunner): Promise<SigningKeyRecord | undefined> {
    return pickRow<SigningKeyRecord>(await sql.get(`SELECT ${COLUMNS.join(', ')} FROM signing_keys WHERE status = 'active'`), COLUMNS);
  }

  private async createKey(tx: SqlRunner): Promise<string> {
    const created = this.now();
    const keyId = `sk_${created.toISOString().slice(0, 10).replaceAll('-', '')}_${randomBytes(4).toString('hex')}`;
    // The secret is on disk before the row that names it: no row ever points at nothing.
    writeSecretFile(this.dataDir, keyId, randomBytes(32));
    await tx.run(`INSERT INTO signing_keys (key_id, status, created_at) VALUES (?, 'active', ?)`, [keyId, created.toISOString()]);
    return keyId;
  }

  private secretOf(keyId: string): Buffer | undefined {
    let secret = this.secrets.get(keyId);
    if (secret === undefined) {
      secret = readSecretFile(this.dataDir, keyId);
      if (secret !== undefined) this.secrets.set(keyId, secret);
    }
    return secret;
  }

  private stamp(): string {
    return this.now().toISOString();
  }
}
