import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress } from '../../api/client-address.ts';

/** The two things clientAddress reads: the socket's peer and X-Forwarded-For. */
function request(peer: string, forwardedFor?: string): Context {
  return {
    req: { socket: { remoteAddress: peer } },
    get: (name: string) => (name === 'x-forwarded-for' ? (forwardedFor ?? '') : ''),
  } as unknown as Context;
}

describe('clientAddress: one address for every limit', () => {
  it('when no proxy is trusted, then X-Forwarded-For is ignored and the peer counts', () => {
    expect(clientAddress(request('198.51.100.1', '203.0.113.5'), 0)).toBe('198.51.100.1');
  });

  it('when n proxies are trusted, then the entry the outermost one appended counts, whatever the client put before it', () => {
    const forwarded = '6.6.6.6, 203.0.113.5, 10.0.0.2';
    expect(clientAddress(request('10.0.0.1', forwarded), 1)).toBe('10.0.0.2');
    expect(clientAddress(request('10.0.0.1', forwarded), 2)).toBe('203.0.113.5');
    // Fewer entries than proxies: the nearest known one, never a guess past it.
    expect(clientAddress(request('10.0.0.1', '203.0.113.5'), 3)).toBe('203.0.113.5');
    expect(clientAddress(request('10.0.0.1'), 1)).toBe('10.0.0.1');
  });

  it('when the address is IPv6, then it counts per /64; IPv4-mapped addresses count as IPv4', () => {
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('[2001:db8:1:2::9]')).toBe('2001:db8:1:2::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::ffff:c000:201')).toBe('0:0:0:0::/64');
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
  });

  it('when a forwarded entry is not an address, then it is counted as written, at most 64 characters', () => {
    expect(addressKey('not-an-address')).toBe('not-an-address');
    expect(addressKey('x'.repeat(500))).toHaveLength(64);
  });
});
