import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadOrCreateServerSecret } from '../common/server-secret-file.ts';

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
  return loadOrCreateServerSecret(webhookKeyPath(dataDir), fromEnv);
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
