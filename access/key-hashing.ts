import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { loadOrCreateServerSecret } from '../common/server-secret-file.ts';

/**
 * Keys are stored only as HMAC-SHA-256(server secret, key). A stolen service.db alone cannot
 * be used to check guesses offline, and the comparison is constant-time.
 */
export function hashApiKey(secret: Buffer, key: string): string {
  return createHmac('sha256', secret).update(key, 'utf8').digest('hex');
}

/** Constant-time check of a presented key against its stored hash. */
export function apiKeyMatches(secret: Buffer, presented: string, storedHash: string): boolean {
  const actual = Buffer.from(hashApiKey(secret, presented), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function keyHashSecretPath(dataDir: string): string {
  return path.join(dataDir, 'secrets', 'api-key-hash.secret');
}

/**
 * The server secret for key hashes: `API_KEY_HASH_SECRET` (hex, ≥ 32 bytes) when set, otherwise
 * a random one created once in `DATA_DIR/secrets/` (mode 0600) and shared by the API and CLI.
 * Losing it invalidates every key; it is never logged and never stored in service.db.
 */
export function loadKeyHashSecret(dataDir: string, fromEnv?: string): Buffer {
  return loadOrCreateServerSecret(keyHashSecretPath(dataDir), fromEnv);
}
