import { pickRow, type ServiceDb, type SqlRunner } from '../service-state/db.ts';
import type { SignedFields } from './certificate.ts';
import { SIGNING_KEYS_LOCK, type SigningKeys, type SigningKeyStatus } from './signing-keys.ts';
import { signCertificate } from './signing.ts';
import type { SnapshotPin } from './snapshot-pin.ts';

/** A certificate as stored: what was signed, the signature, the pinned snapshot and who minted it. */
export interface StoredCertificate {
  fields: SignedFields;
  sig: string;
  pin: SnapshotPin;
  mintedByKeyId: string | null;
  mintedByAccount: string | null;
}

/** A stored certificate with what verification needs beside it, read in one query. */
export interface CertificateForVerification extends StoredCertificate {
  keyStatus: SigningKeyStatus | null;
  revocation: Revocation | null;
}

export interface Revocation {
  revoked_at: string;
  note: string;
}

/** Raised for an operator's mistake on revocation (unknown certificate, revoked already). */
export class RevocationError extends Error {
  override name = 'RevocationError';
}

/** A `certificates` row joined with its key status and revocation: the signed fields flattened (`snapshot_ref` as two columns). */
type Row = Omit<SignedFields, 'snapshot_ref'> & {
  snapshot_source: string;
  snapshot_day: string;
  sig: string;
  snapshot_screened_at: string;
  snapshot_pin: string;
  minted_by_key_id: string | null;
  minted_by_account: string | null;
  key_status: SigningKeyStatus | null;
  revoked_at: string | null;
  revocation_note: string | null;
};

const CERT_COLUMNS = [
  'cert_id',
  'payload_version',
  'market',
  'ticker',
  'standard',
  'verdict',
  'score',
  'purification_per_share',
  'as_of',
  'minted_at',
  'snapshot_source',
  'snapshot_day',
  'key_id',
  'sig',
  'company_name',
  'issuer_type',
  'snapshot_screened_at',
  'snapshot_pin',
  'minted_by_key_id',
  'minted_by_account',
] as const;
const ROW_COLUMNS = [...CERT_COLUMNS, 'key_status', 'revoked_at', 'revocation_note'] as const;

function fromRow(row: Row): CertificateForVerification {
  return {
    fields: {
      cert_id: row.cert_id,
      payload_version: Number(row.payload_version),
      ticker: row.ticker,
      market: row.market,
      standard: row.standard,
      verdict: row.verdict,
      score: row.score === null ? null : Number(row.score),
      purification_per_share: row.purification_per_share === null ? null : Number(row.purification_per_share),
      as_of: row.as_of,
      minted_at: row.minted_at,
      snapshot_ref: { source: row.snapshot_source, day: row.snapshot_day },
      key_id: row.key_id,
      company_name: row.company_name,
      issuer_type: row.issuer_type,
    },
    sig: row.sig,
    pin: JSON.parse(row.snapshot_pin) as SnapshotPin,
    mintedByKeyId: row.minted_by_key_id,
    mintedByAccount: row.minted_by_account,
    keyStatus: row.key_status,
    revocation: row.revoked_at === null ? null : { revoked_at: row.revoked_at, note: row.revocation_note ?? '' },
  };
}

const INSERT_SQL = `INSERT INTO certificates (${CERT_COLUMNS.join(', ')}) VALUES (${CERT_COLUMNS.map(() => '?').join(', ')})`;
// One indexed read per verification: the certificate, its key's trust and any revocation.
const LOOKUP_SQL = `
  SELECT ${CERT_COLUMNS.map((c) => `c.${c}`).join(', ')}, k.status AS key_status, r.revoked_at, r.note AS revocation_note
  FROM certificates c
  LEFT JOIN signing_keys k ON k.key_id = c.key_id
  LEFT JOIN revocations r ON r.cert_id = c.cert_id
  WHERE c.cert_id = ?`;

/** Certificates and revocations in the service state. There is no method that changes or deletes a certificate. */
export class CertificateStore {
  constructor(private readonly db: ServiceDb) {}

  /**
   * Signs `unsigned` with the active key and stores it in one transaction that holds the
   * signing keys' lock shared: a key distrusted concurrently never signs, and the row is
   * committed durably (docs/operations.md) when this resolves, before any response is sent.
   */
  async issue(
    unsigned: Omit<SignedFields, 'key_id'>,
    pin: SnapshotPin,
    mintedBy: { keyId: string | null; account: string | null },
    keys: SigningKeys,
  ): Promise<StoredCertificate> {
    await keys.ensureActive();
    return this.db.transaction(async (tx) => {
      await tx.lock(SIGNING_KEYS_LOCK, 'shared');
      const { keyId, secret } = await keys.activeForSigning(tx);
      const fields: SignedFields = { ...unsigned, key_id: keyId };
      const sig = signCertificate(fields, secret);
      await tx.run(INSERT_SQL, [
        fields.cert_id,
        fields.payload_version,
        fields.market,
        fields.ticker,
        fields.standard,
        fields.verdict,
        fields.score,
        fields.purification_per_share,
        fields.as_of,
        fields.minted_at,
        fields.snapshot_ref.source,
        fields.snapshot_ref.day,
        fields.key_id,
        sig,
        fields.company_name,
        fields.issuer_type,
        pin.screenedAt,
        JSON.stringify(pin),
        mintedBy.keyId,
        mintedBy.account,
      ]);
      return { fields, sig, pin, mintedByKeyId: mintedBy.keyId, mintedByAccount: mintedBy.account };
    });
  }

  /** The certificate with its key's status and revocation, or undefined. */
  async find(certId: string, sql: SqlRunner = this.db): Promise<CertificateForVerification | undefined> {
    const row = pickRow<Row>(await sql.get(LOOKUP_SQL, [certId]), ROW_COLUMNS);
    return row === undefined ? undefined : fromRow(row);
  }

  /** Records a revocation with its date and note; a certificate is revoked once, for good. */
  async revoke(certId: string, note: string, now: Date = new Date()): Promise<Revocation> {
    const text = note.trim();
    if (text.length === 0) throw new RevocationError('a revocation needs a note saying why (--note "…")');
    return this.db.transaction(async (tx) => {
      await tx.lock(`revocation:${certId}`);
      const found = await this.find(certId, tx);
      if (!found) throw new RevocationError(`no certificate '${certId}'`);
      if (found.revocation)
        throw new RevocationError(`certificate ${certId} was already revoked on ${found.revocation.revoked_at}: ${found.revocation.note}`);
      const revocation = { revoked_at: now.toISOString(), note: text };
      await tx.run('INSERT INTO revocations (cert_id, revoked_at, note) VALUES (?, ?, ?)', [
        certId,
        revocation.revoked_at,
        revocation.note,
      ]);
      return revocation;
    });
  }
}
