import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CertificateStore, RevocationError } from '../../attest/certificate-store.ts';
import { readSecretFile, signingKeysDir, writeSecretFile } from '../../attest/secret-files.ts';
import { SigningKeyError, SigningKeys } from '../../attest/signing-keys.ts';
import { openServiceDb, type ServiceDb } from '../../service-state/db.ts';
import { testServiceState } from '../support/service-state.ts';
import { TEST_PIN, unsignedCertificate } from '../support/certificates.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const UNSIGNED = unsignedCertificate('2');

describe('signing keys and certificates in the real service state', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let db: ServiceDb;
  let keys: SigningKeys;
  let certificates: CertificateStore;

  beforeEach(async () => {
    temp = await makeTempDir('faithscreen-attest-store-');
    db = await openServiceDb(await testServiceState(temp.dir));
    keys = new SigningKeys(db, temp.dir);
    certificates = new CertificateStore(db);
  });
  afterEach(async () => {
    await db.close();
    await temp.cleanup();
  });

  it('when the first certificate is issued, then the first key is created on need, its secret in a 0600 file in a 0700 folder', async () => {
    expect(await keys.list()).toEqual([]);
    const stored = await certificates.issue(UNSIGNED, TEST_PIN, { keyId: null, account: null }, keys);
    const [key] = await keys.list();
    expect(key).toMatchObject({ key_id: stored.fields.key_id, status: 'active' });
    expect(statSync(path.join(signingKeysDir(temp.dir), `${key!.key_id}.key`)).mode & 0o777).toBe(0o600);
    expect(statSync(signingKeysDir(temp.dir)).mode & 0o777).toBe(0o700);
    expect(Object.keys(key!)).not.toContain('secret');
  });

  it('when a secret file is written again for the same key id, then it is refused and the first secret stays', async () => {
    writeSecretFile(temp.dir, 'sk_20261121_aaaaaaaa', Buffer.alloc(32, 1));
    expect(() => writeSecretFile(temp.dir, 'sk_20261121_aaaaaaaa', Buffer.alloc(32, 2))).toThrow(/already has a secret file/);
    expect(readSecretFile(temp.dir, 'sk_20261121_aaaaaaaa')).toEqual(Buffer.alloc(32, 1));
    expect(readdirSync(signingKeysDir(temp.dir))).toEqual(['sk_20261121_aaaaaaaa.key']);
  });

  it('when the same cert_id is issued twice, then the second is refused: a certificate is never replaced', async () => {
    await certificates.issue(UNSIGNED, TEST_PIN, { keyId: null, account: null }, keys);
    await expect(
      certificates.issue({ ...UNSIGNED, verdict: 'non_compliant' }, TEST_PIN, { keyId: null, account: null }, keys),
    ).rejects.toThrow(/UNIQUE|duplicate key/);
    expect((await certificates.find(UNSIGNED.cert_id))!.fields.verdict).toBe('compliant');
  });

  it('when a signing key or a revocation is deleted with SQL, then the triggers refuse', async () => {
    await certificates.issue(UNSIGNED, TEST_PIN, { keyId: null, account: null }, keys);
    await certificates.revoke(UNSIGNED.cert_id, 'wrong data');
    await expect(db.exec('DELETE FROM signing_keys')).rejects.toThrow(/kept for verification/);
    await expect(db.exec('DELETE FROM revocations')).rejects.toThrow(/permanent/);
    await expect(db.exec("UPDATE revocations SET note = 'nothing'")).rejects.toThrow(/permanent/);
    await expect(db.exec('DELETE FROM certificates')).rejects.toThrow(/permanent/);
    expect(await certificates.find(UNSIGNED.cert_id)).toBeDefined();
  });

  it('when a key is distrusted, then it has no trusted secret and it can never be trusted again', async () => {
    await keys.ensureActive();
    const { keyId } = await db.transaction((tx) => keys.activeForSigning(tx));
    expect(keys.trustedSecret(keyId, 'active')).toBeInstanceOf(Buffer);
    const { replacement } = await keys.distrust(keyId, 'leaked');
    expect(replacement!.status).toBe('active');
    expect(keys.trustedSecret(keyId, (await keys.find(keyId))!.status)).toBeUndefined();
    await expect(db.run("UPDATE signing_keys SET status = 'retired' WHERE key_id = ?", [keyId])).rejects.toThrow(/stays distrusted/);
    await expect(keys.distrust('sk_20000101_00000000', null)).rejects.toThrow(SigningKeyError);
  });

  it('when the secret file of a trusted key is lost, then a fresh process has no secret for it (its certificates read unknown_signing_key)', async () => {
    await keys.ensureActive();
    const { keyId } = await db.transaction((tx) => keys.activeForSigning(tx));
    rmSync(path.join(signingKeysDir(temp.dir), `${keyId}.key`));
    expect(new SigningKeys(db, temp.dir).trustedSecret(keyId, 'active')).toBeUndefined();
    await expect(db.transaction((tx) => new SigningKeys(db, temp.dir).activeForSigning(tx))).rejects.toThrow(
      /secret file of active signing key .* is missing; run faithscreen signing-keys rotate/,
    );
  });

  it('when a revocation has no note or names an unknown certificate, then it is refused', async () => {
    await expect(certificates.revoke(UNSIGNED.cert_id, 'x')).rejects.toThrow(/no certificate/);
    await certificates.issue(UNSIGNED, TEST_PIN, { keyId: null, account: null }, keys);
    await expect(certificates.revoke(UNSIGNED.cert_id, '   ')).rejects.toThrow(RevocationError);
    await certificates.revoke(UNSIGNED.cert_id, 'wrong data');
    await expect(certificates.revoke(UNSIGNED.cert_id, 'again')).rejects.toThrow(/already revoked/);
  });
});
