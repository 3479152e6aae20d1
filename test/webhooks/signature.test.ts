import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from '../../webhooks/signature.ts';
import { newSigningSecret } from '../../webhooks/events.ts';
import { openSecret, sealSecret } from '../../webhooks/secret-box.ts';
import { randomBytes } from 'node:crypto';

const secret = 'whsec_test-secret';
const body = '{"id":"evt_1","type":"status.changed"}';
const now = 1_790_000_000;

describe('Faithscreen-Signature', () => {
  it('when the body and header are as sent, then verification passes and returns the timestamp', () => {
    const header = signatureHeader(secret, now, body);
    expect(header).toMatch(/^t=1790000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secret, header, body, { nowSeconds: now + 10 })).toEqual({ valid: true, timestamp: now });
  });

  it('when one byte of the body is changed, then verification fails', () => {
    const header = signatureHeader(secret, now, body);
    const tampered = body.replace('status.changed', 'status.chAnged');
    expect(verifySignature(secret, header, tampered, { nowSeconds: now })).toEqual({
      valid: false,
      reason: 'no v1 signature matches the body',
    });
  });

  it('when the timestamp is replaced, or the secret is another, then verification fails', () => {
    const header = signatureHeader(secret, now, body);
    const moved = header.replace(`t=${now}`, `t=${now + 1}`);
    expect(verifySignature(secret, moved, body, { nowSeconds: now }).valid).toBe(false);
    expect(verifySignature('whsec_other', header, body, { nowSeconds: now }).valid).toBe(false);
  });

  it('when the delivery is older than the tolerance, then it is refused as a possible replay', () => {
    const header = signatureHeader(secret, now, body);
    expect(verifySignature(secret, header, body, { nowSeconds: now + 301 })).toMatchObject({ valid: false, reason: /tolerance/ });
    expect(verifySignature(secret, header, body, { nowSeconds: now + 301, toleranceSeconds: 600 }).valid).toBe(true);
  });

  it('when the header is missing or malformed, then verification fails saying why', () => {
    expect(verifySignature(secret, undefined, body)).toMatchObject({ valid: false, reason: /no Faithscreen-Signature/ });
    expect(verifySignature(secret, 'v1=abc', body)).toMatchObject({ valid: false, reason: /t=/ });
    expect(verifySignature(secret, `t=${now},v1=zz`, body, { nowSeconds: now }).valid).toBe(false);
  });
});

describe('sealed signing secrets', () => {
  const key = randomBytes(32);

  it('when sealed and opened with the same key and subscription, then the secret comes back', () => {
    const secretText = newSigningSecret();
    expect(secretText).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const sealed = sealSecret(key, 'whs_a', secretText);
    expect(sealed).not.toContain(secretText);
    expect(openSecret(key, 'whs_a', sealed)).toBe(secretText);
  });

  it('when opened with another key, for another subscription, or altered, then it refuses', () => {
    const sealed = sealSecret(key, 'whs_a', 'whsec_x');
    expect(() => openSecret(randomBytes(32), 'whs_a', sealed)).toThrow(/not the key it was sealed with/);
    expect(() => openSecret(key, 'whs_b', sealed)).toThrow(/cannot be opened/);
    const parts = sealed.split('.');
    parts[3] = Buffer.from('whsec_y').toString('base64url');
    expect(() => openSecret(key, 'whs_a', parts.join('.'))).toThrow(/cannot be opened/);
    expect(() => openSecret(key, 'whs_a', 'plain')).toThrow(/sealed format/);
  });
});
