import { randomBytes } from 'node:crypto';

/**
 * The shape of an API key: `fs_live_` + a 12-character public key id + 43 characters of
 * secret (32 random bytes), all base62 so a key survives copy-paste, URLs and shells.
 * The key id part lets the server find the key's record without trusting anything else
 * the caller sent; the whole key is then checked against its stored keyed hash.
 */
export const KEY_PREFIX = 'fs_live_';
const KEY_ID_CHARS = 12;
const SECRET_BYTES = 32;
const SECRET_CHARS = 43; // ceil(256 / log2(62))
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}([0-9A-Za-z]{${KEY_ID_CHARS}})([0-9A-Za-z]{${SECRET_CHARS}})$`);

/** Base62 of `bytes` as an unsigned big-endian number, left-padded to `width`. */
export function base62(bytes: Uint8Array, width: number): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = BASE62[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text.padStart(width, '0');
}

/** A base62 string of exactly `length` characters, each uniform (rejection sampling, no modulo bias). */
function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && text.length < length) text += BASE62[byte % 62];
    }
  }
  return text;
}

export interface NewApiKey {
  /** The full secret key, shown once. */
  key: string;
  /** Public id, safe to log and show: `key_` + the id part. */
  keyId: string;
}

export function generateApiKey(): NewApiKey {
  const idPart = randomBase62(KEY_ID_CHARS);
  const secretPart = base62(randomBytes(SECRET_BYTES), SECRET_CHARS);
  return { key: `${KEY_PREFIX}${idPart}${secretPart}`, keyId: keyIdOf(idPart) };
}

const keyIdOf = (idPart: string) => `key_${idPart}`;

/** The public key id a presented key claims, or null when it is not shaped like one of our keys. */
export function claimedKeyId(presented: string): string | null {
  const match = KEY_PATTERN.exec(presented);
  return match ? keyIdOf(match[1]!) : null;
}
