import { describe, expect, it } from 'vitest';
import { base62, claimedKeyId, generateApiKey, KEY_PREFIX } from '../../access/api-key-format.ts';
import { apiKeyMatches, hashApiKey, loadKeyHashSecret } from '../../access/key-hashing.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { readFileSync, statSync } from 'node:fs';

describe('API key format', () => {
  it('is fs_live_ + a 12-character key id + 43 base62 characters of secret (256 bits)', () => {
    const { key, keyId } = generateApiKey();
    expect(key).toMatch(/^fs_live_[0-9A-Za-z]{55}$/);
    expect(key.startsWith(KEY_PREFIX)).toBe(true);
    expect(keyId).toBe(`key_${key.slice(8, 20)}`);
    expect(claimedKeyId(key)).toBe(keyId);
  });

  it('never repeats a key or a key id across many draws', () => {
    const keys = Array.from({ length: 2_000 }, generateApiKey);
    expect(new Set(keys.map((k) => k.key)).size).toBe(2_000);
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(2_000);
  });

  it('rejects anything not shaped like one of our keys', () => {
    const { key } = generateApiKey();
    for (const bad of [
      '',
      'fs_live_',
      key.slice(0, -1),
      `${key}x`,
      key.replace('fs_live_', 'fs_test_'),
      `${key.slice(0, -1)}!`,
      ` ${key}`,
    ]) {
      expect(claimedKeyId(bad)).toBeNull();
    }
  });

  it('encodes base62 big-endian with padding', () => {
    expect(base62(new Uint8Array([0]), 3)).toBe('000');
    expect(base62(new Uint8Array([61]), 1)).toBe('z');
    expect(base62(new Uint8Array([62]), 2)).toBe('10');
    expect(base62(new Uint8Array(32).fill(255), 43)).toHaveLength(43);
  });
});

describe('key hashing', () => {
  const secret = Buffer.alloc(32, 7);

  it('stores a keyed hash that matches only the same key under the same secret', () => {
    const { key } = generateApiKey();
    const stored = hashApiKey(secret, key);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain(key.slice(20));
    expect(apiKeyMatches(secret, key, stored)).toBe(true);
    expect(apiKeyMatches(secret, `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, stored)).toBe(false);
    expect(apiKeyMatches(Buffer.alloc(32, 8), key, stored)).toBe(false);
    expect(apiKeyMatches(secret, key, 'abcd')).toBe(false);
  });

  it('creates the server secret once, private to the owner, and reuses it', async () => {
    const temp = await makeTempDir();
    try {
      const first = loadKeyHashSecret(temp.dir);
      const again = loadKeyHashSecret(temp.dir);
      expect(first.length).toBe(32);
      expect(again.equals(first)).toBe(true);
      const file = `${temp.dir}/secrets/api-key-hash.secret`;
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8')).toBe(first.toString('hex'));
      expect(loadKeyHashSecret(temp.dir, 'ab'.repeat(32)).equals(Buffer.alloc(32, 0xab))).toBe(true);
    } finally {
      await temp.cleanup();
    }
  });
});
