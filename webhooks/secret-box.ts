import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Webhook signing secrets must be recoverable (the worker signs every delivery with one), so
 * they cannot be hashed like API keys. They are sealed with AES-256-GCM under the webhook secret
 * key: `WEBHOOK_SECRET_KEY` (hex, 32 bytes) when set — required when the API and the workers
 * do not share a DATA_DIR — otherwise a random key created once in
 * `DATA_DIR/secrets/webhook-secret.key` (mode 0600). The service state holds only sealed
 * secrets, so a copy of it (or a state export) alone signs nothing (docs/webhooks.md).
 */
export function webhookKeyPath(dataDir: string): string {
  return path.join(dataDir, 'secrets', 'webhook-secret.key');
}

/** The 32-byte key that seals subscription secrets. */
export function loadWebhookKey(dataDir: string, fromEnv?: string): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'hex');
  const file = webhookKeyPath(dataDir);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    // link() never replaces: when the API and a worker race, both end up reading the first one's key.
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

const VERSION = 'v1';

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts; the subscription id is bound in as associated data. */
export function sealSecret(key: Buffer, subscriptionId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The secret sealed for `subscriptionId`; throws when the key is wrong or the value was altered. */
export function openSecret(key: Buffer, subscriptionId: string, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined)
    throw new Error(`webhook secret of ${subscriptionId} is not in the ${VERSION} sealed format`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(
      `webhook secret of ${subscriptionId} cannot be opened: WEBHOOK_SECRET_KEY (or DATA_DIR/secrets/webhook-secret.key) is not the key it was sealed with`,
    );
  }
}
