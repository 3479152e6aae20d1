import { createHash, randomBytes } from 'node:crypto';

/**
 * Random bearer tokens (session ids, set-password links): 32 random bytes, base64url. Only
 * SHA-256 of a token is stored; 256 bits of randomness need no salt or slow hash.
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A token as a browser could send it: 43 base64url characters. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
