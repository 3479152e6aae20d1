import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Signing secrets live only here: one file per key, `DATA_DIR/secrets/signing-keys/<key_id>.key`,
 * mode 0600 in a 0700 folder, written atomically (temp file, fsync, hard link to its name, fsync
 * of the folder). They never enter service.db, the warehouse, a response or a log line.
 */
export function signingKeysDir(dataDir: string): string {
  return path.join(dataDir, 'secrets', 'signing-keys');
}

function secretPath(dataDir: string, keyId: string): string {
  return path.join(signingKeysDir(dataDir), `${keyId}.key`);
}

/** Writes a new secret; refuses to overwrite an existing one (a key id names one secret forever). */
export function writeSecretFile(dataDir: string, keyId: string, secret: Buffer): void {
  const dir = signingKeysDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const target = secretPath(dataDir, keyId);
  const temp = path.join(dir, `.${keyId}.${process.pid}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${secret.toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    // link() publishes the complete file under its name atomically and, unlike rename(), never replaces one.
    linkSync(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`signing key ${keyId} already has a secret file`);
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/** The secret of `keyId`, or undefined when its file is not there. */
export function readSecretFile(dataDir: string, keyId: string): Buffer | undefined {
  try {
    return Buffer.from(readFileSync(secretPath(dataDir, keyId), 'utf8').trim(), 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
