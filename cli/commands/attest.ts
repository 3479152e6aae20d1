import type { Command } from 'commander';
import { CERT_ID_PATTERN } from '../../attest/certificate.ts';
import { CertificateStore, RevocationError } from '../../attest/certificate-store.ts';
import { KEY_ID_PATTERN, SigningKeyError, SigningKeys } from '../../attest/signing-keys.ts';
import { printJson, refuse, withServiceDb } from '../operator-command.ts';

/** An operator's mistakes in these commands: exit 1 with the reason. */
const REFUSALS = [SigningKeyError, RevocationError];

/** `signing-keys …` and `attest …`: operators' side of attestations. Only key ids, statuses and dates are printed: secrets never leave their files. */
export function registerAttestCommands(program: Command): void {
  const keys = program
    .command('signing-keys')
    .description('keys that sign attestations (metadata in service.db, secrets in DATA_DIR/secrets/signing-keys)');
  keys
    .command('list')
    .description('list signing keys with their status (active, retired, distrusted)')
    .action(() => withServiceDb(async (db, dataDir) => printJson(await new SigningKeys(db, dataDir).list()), REFUSALS));
  keys
    .command('rotate')
    .description('make a new active signing key; the old one is retired and its certificates stay valid')
    .action(() => withServiceDb(async (db, dataDir) => printJson(await new SigningKeys(db, dataDir).rotate()), REFUSALS));
  keys
    .command('distrust <key_id>')
    .description('withdraw trust from a (compromised) key: its certificates verify as unknown_signing_key; the record is kept')
    .option('--note <text>', 'why the key is distrusted (kept with the key record)')
    .action((keyId: string, options: { note?: string }) => {
      if (!KEY_ID_PATTERN.test(keyId))
        return refuse(`'${keyId}' is not a signing key id; ids look like sk_20261121_0a1b2c3d (see faithscreen signing-keys list)`);
      withServiceDb(
        async (db, dataDir) => printJson(await new SigningKeys(db, dataDir).distrust(keyId, options.note?.trim() || null)),
        REFUSALS,
      );
    });

  const attest = program.command('attest').description('attestation certificates');
  attest
    .command('revoke <cert_id>')
    .description('revoke a certificate with a dated note; it is never deleted and verifies as revoked from now on')
    .requiredOption('--note <text>', 'why it is revoked (shown to everyone who verifies it)')
    .action((certId: string, options: { note: string }) => {
      if (!CERT_ID_PATTERN.test(certId)) return refuse(`'${certId}' is not a certificate id; ids are fsc_ followed by 40 hex digits`);
      withServiceDb(
        async (db) => printJson({ cert_id: certId, ...(await new CertificateStore(db).revoke(certId, options.note)) }),
        REFUSALS,
      );
    });
}
