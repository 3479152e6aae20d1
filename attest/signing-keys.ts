import { randomBytes } from 'node:crypto';
import { pickRow, type ServiceDb } from '../service-state/db.ts';
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

/** Raised for an operator's mistake (unknown key id, already distrusted); the CLI prints the message. */
export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

/**
 * Signing keys: metadata in service.db, secrets in files (see secret-files.ts). One key is
 * active and signs new certificates; `rotate` retires it (its certificates stay valid) and makes
 * a new one; `distrust` marks a key compromised (its certificates verify as unknown_signing_key).
 * Trust is read from service.db on every call, so the CLI's changes reach a running API at once.
 */
export class SigningKeys {
  private readonly secrets = new Map<string, Buffer>();
  private readonly byId;
  private readonly activeRow;

  constructor(
    private readonly db: ServiceDb,
    private readonly dataDir: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.byId = db.prepare(`SELECT ${COLUMNS.join(', ')} FROM signing_keys WHERE key_id = ?`);
    this.activeRow = db.prepare(`SELECT ${COLUMNS.join(', ')} FROM signing_keys WHERE status = 'active'`);
  }

  /** Every key, oldest first. */
  list(): SigningKeyRecord[] {
    return this.db.prepare(`SELECT ${COLUMNS.join(', ')} FROM signing_keys ORDER BY created_at, key_id`).all().map((row) => pickRow<SigningKeyRecord>(row, COLUMNS)!);
  }

  find(keyId: string): SigningKeyRecord | undefined {
    return pickRow<SigningKeyRecord>(this.byId.get(keyId), COLUMNS);
  }

  /**
   * The active key and its secret, creating the first key on first need. Call inside the
   * transaction that stores the certificate, so a concurrent distrust cannot slip in between.
   */
  activeForSigning(): { keyId: string; secret: Buffer } {
    const active = pickRow<SigningKeyRecord>(this.activeRow.get(), COLUMNS);
    const keyId = active?.key_id ?? this.createKey();
    const secret = this.secretOf(keyId);
    if (secret === undefined) throw new Error(`the secret file of active signing key ${keyId} is missing; run faithscreen signing-keys rotate`);
    return { keyId, secret };
  }

  /** The secret of `keyId` when the key is known and trusted (active or retired); undefined otherwise. */
  trustedSecret(keyId: string, status: SigningKeyStatus | null): Buffer | undefined {
    if (status !== 'active' && status !== 'retired') return undefined;
    return this.secretOf(keyId);
  }

  /** Retires the active key (if any) and makes a new active one. */
  rotate(): { created: SigningKeyRecord; retired: SigningKeyRecord | null } {
    return this.db
      .transaction(() => {
        const active = pickRow<SigningKeyRecord>(this.activeRow.get(), COLUMNS);
        if (active) this.db.prepare(`UPDATE signing_keys SET status = 'retired', retired_at = ? WHERE key_id = ?`).run(this.stamp(), active.key_id);
        const created = this.find(this.createKey())!;
        return { created, retired: active ? this.find(active.key_id)! : null };
      })
      .immediate();
  }

  /** Marks a key compromised; distrusting the active key makes a new active one in the same transaction. */
  distrust(keyId: string, note: string | null): { distrusted: SigningKeyRecord; replacement: SigningKeyRecord | null } {
    return this.db
      .transaction(() => {
        const key = this.find(keyId);
        if (!key) throw new SigningKeyError(`no signing key '${keyId}'; known keys: ${this.list().map((k) => k.key_id).join(', ') || 'none'}`);
        if (key.status === 'distrusted') throw new SigningKeyError(`signing key ${keyId} was already distrusted on ${key.distrusted_at}`);
        this.db.prepare(`UPDATE signing_keys SET status = 'distrusted', distrusted_at = ?, distrust_note = ? WHERE key_id = ?`).run(this.stamp(), note, keyId);
        const replacement = key.status === 'active' ? this.find(this.createKey())! : null;
        return { distrusted: this.find(keyId)!, replacement };
      })
      .immediate();
  }

  private createKey(): string {
    const created = this.now();
    const keyId = `sk_${created.toISOString().slice(0, 10).replaceAll('-', '')}_${randomBytes(4).toString('hex')}`;
    // The secret is on disk before the row that names it: no row ever points at nothing.
    writeSecretFile(this.dataDir, keyId, randomBytes(32));
    this.db.prepare(`INSERT INTO signing_keys (key_id, status, created_at) VALUES (?, 'active', ?)`).run(keyId, created.toISOString());
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
