import { describe, expect, it } from 'vitest';
import { checkTarget, isPublicAddress, STRICT_POLICY, TargetRefused } from '../../webhooks/target-policy.ts';

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as TargetRefused;
  }
  throw new Error('expected a refusal');
};

describe('webhook target policy', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
    // IPv4 inside IPv6: compatible (::/96), mapped in hex (what URL parsing makes of ::ffff:127.0.0.1), 6to4, Teredo.
    '::7f00:1',
    '::ffff:7f00:1',
    '::ffff:8.8.8.8',
    '2002:7f00:1::1',
    '2001:0:7f00:1::1',
  ])('when the address is %s, then it is not public', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2001:4860:4860::8888'])(
    'when the address is %s, then it is public',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it('when the target is https on a public IP, then it is accepted', async () => {
    await expect(checkTarget(STRICT_POLICY, 'https://8.8.8.8/hook')).resolves.toBeInstanceOf(URL);
  });

  it('when the target is plain http, then it is refused unless the operator allows http', async () => {
    const error = await refusal(checkTarget(STRICT_POLICY, 'http://8.8.8.8/hook'));
    expect(error).toMatchObject({ kind: 'not_allowed', message: expect.stringMatching(/https/) });
    await expect(checkTarget({ allowHttp: true, allowPrivate: false }, 'http://8.8.8.8/hook')).resolves.toBeInstanceOf(URL);
  });

  it('when the host is loopback (by IP or by a name that resolves there), then it is refused unless private targets are allowed', async () => {
    for (const url of [
      'https://127.0.0.1:9/hook',
      'https://[::1]/hook',
      'https://localhost/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::7f00:1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
    ]) {
      const error = await refusal(checkTarget(STRICT_POLICY, url));
      expect(error).toMatchObject({ kind: 'not_allowed', message: expect.stringMatching(/not a public address/) });
    }
    await expect(checkTarget({ allowHttp: false, allowPrivate: true }, 'https://localhost/hook')).resolves.toBeInstanceOf(URL);
  });

  it('when the URL is not a usable absolute https URL, then it is refused naming the problem', async () => {
    expect(await refusal(checkTarget(STRICT_POLICY, 'hooks.example.com'))).toMatchObject({ kind: 'invalid_url', message: /absolute URL/ });
    expect(await refusal(checkTarget(STRICT_POLICY, 'ftp://8.8.8.8/x'))).toMatchObject({ kind: 'invalid_url', message: /scheme 'ftp'/ });
    expect(await refusal(checkTarget(STRICT_POLICY, 'https://user:pw@8.8.8.8/x'))).toMatchObject({ message: /credentials/ });
    expect(await refusal(checkTarget(STRICT_POLICY, 'https://8.8.8.8/x#frag'))).toMatchObject({ message: /fragment/ });
    expect(await refusal(checkTarget(STRICT_POLICY, `https://8.8.8.8/${'a'.repeat(2100)}`))).toMatchObject({ message: /longer than/ });
  });

  it('when the host does not resolve, then it is refused', async () => {
    const error = await refusal(checkTarget(STRICT_POLICY, 'https://no-such-host.invalid/hook'));
    expect(error).toMatchObject({ kind: 'not_allowed', message: expect.stringMatching(/does not resolve/) });
  });
});
