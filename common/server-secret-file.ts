import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A server secret the operator may give as hex (`fromEnv`), otherwise 32 random bytes created once
 * in `file` (mode 0600 in a 0700 folder) and read by every process of the same DATA_DIR.
 */
export function loadOrCreateServerSecret(file: string, fromEnv?: string): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'hex');
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    // link() never replaces: when two processes race, the first wins and both read its secret.
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temp);
    }
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}
