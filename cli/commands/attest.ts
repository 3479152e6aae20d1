import type { Command } from 'commander';
import { CERT_ID_PATTERN } from '../../attest/certificate.ts';
import { CertificateStore, RevocationError } from '../../attest/certificate-store.ts';
import { KEY_ID_PATTERN, SigningKeyError, SigningKeys } from '../../attest/signing-keys.ts';
import { getConfig } from '../../platform/config.ts';
import { serviceStateOf } from '../../platform/service-state.ts';
import { openServiceDb, type ServiceDb } from '../../service-state/db.ts';

/**
 * Runs one operation on the service state (DATABASE_URL or DATA_DIR/service.db: what every
 * running API process reads on each verification, so the change counts there at once); an operator's mistake exits 1 with its reason.
 */
async function withServiceDb(action: (db: ServiceDb, dataDir: string) => Promise<unknown>): Promise<void> {
  const config = getConfig();
  const db = await openServiceDb(serviceStateOf(config));
  try {
    await action(db, config.dataDir);
  } catch (error) {
    if (!(error instanceof SigningKeyError) && !(error instanceof RevocationError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = 1;
  } finally {
    await db.close();
  }
}

function refuse(message: string): void {
  process.stderr.write(`error: ${message}\n`);
  process.exitCode = 1;
}

// Only key ids, statuses and dates are printed: secrets never leave their files.
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** `signing-keys …` and `attest …`: operators' side of attestations. */
export function registerAttestCommands(program: Command): void {
  const keys = program
    .command('signing-keys')
    .description('keys that sign attestations (metadata in service.db, secrets in DATA_DIR/secrets/signing-keys)');
  keys
    .command('list')
    .description('list signing keys with their status (active, retired, distrusted)')
    .action(() => withServiceDb(async (db, dataDir) => print(await new SigningKeys(db, dataDir).list())));
  keys
    .command('rotate')
    .description('make a new active signing key; the old one is retired and its certificates stay valid')
    .action(() => withServiceDb(async (db, dataDir) => print(await new SigningKeys(db, dataDir).rotate())));
  keys
    .command('distrust <key_id>')
    .description('withdraw trust from a (compromised) key: its certificates verify as unknown_signing_key; the record is kept')
    .option('--note <text>', 'why the key is distrusted (kept with the key record)')
    .action((keyId: string, options: { note?: string }) => {
      if (!KEY_ID_PATTERN.test(keyId))
        return refuse(`'${keyId}' is not a signing key id; ids look like sk_20261121_0a1b2c3d (see faithscreen signing-keys list)`);
      withServiceDb(async (db, dataDir) => print(await new SigningKeys(db, dataDir).distrust(keyId, options.note?.trim() || null)));
    });

  const attest = program.command('attest').description('attestation certificates');
  attest
    .command('revoke <cert_id>')
    .description('revoke a certificate with a dated note; it is never deleted and verifies as revoked from now on')
    .requiredOption('--note <text>', 'why it is revoked (shown to everyone who verifies it)')
    .action((certId: string, options: { note: string }) => {
      if (!CERT_ID_PATTERN.test(certId)) return refuse(`'${certId}' is not a certificate id; ids are fsc_ followed by 40 hex digits`);
      withServiceDb(async (db) => print({ cert_id: certId, ...(await new CertificateStore(db).revoke(certId, options.note)) }));
    });
}
