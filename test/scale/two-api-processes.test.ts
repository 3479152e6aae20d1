import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLake, type FixtureTickers } from '../api/support/lake-fixture.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { cli, newKey, startApiProcess, stop, type ApiProcess } from './support/api-process.ts';

describe('two API processes on one PostgreSQL', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let t: FixtureTickers;
  let apis: ApiProcess[] = [];

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-two-apis-');
    t = await buildLake(temp.dir);
    apis = await Promise.all([startApiProcess(temp.dir), startApiProcess(temp.dir)]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(apis.map(stop));
    await temp?.cleanup();
  });

  it('when 300 concurrent requests spread over both spend a key with 10 units, then exactly 10 are answered 200 and 290 are 429', async () => {
    const { key } = await newKey(temp.dir, 'ten-units', '--daily-limit', '10');
    const statuses = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        fetch(`${apis[i % 2]!.url}/api/screen/us/${t.fresh[i % t.fresh.length]}`, { headers: { 'X-API-Key': key } }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(290);
    // The store agrees: 10 units used, none left (spare units go back within a second).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const [listed] = JSON.parse(await cli(temp.dir, 'keys', 'list', '--account', 'ten-units', '--json')) as Array<{
      usage: Array<{ window: string; used: number }>;
    }>;
    expect(listed!.usage.find((u) => u.window === 'daily')?.used).toBe(10);
  }, 60_000);

  it('when a certificate is minted on one process, then the other verifies it as valid', async () => {
    const { key } = await newKey(temp.dir, 'minter', '--daily-limit', '100', '--endpoints', 'screen,attest');
    const minted = await fetch(`${apis[0]!.url}/api/attest/us/${t.fresh[0]}?standard=shariah_aaoifi`, {
      method: 'POST',
      headers: { 'X-API-Key': key },
    });
    expect(minted.status).toBe(200);
    const certificate = (await minted.json()) as { cert_id: string; sig: string };
    const verified = (await (await fetch(`${apis[1]!.url}/api/attest/verify/${certificate.cert_id}`)).json()) as {
      status: string;
      attestation: { sig: string };
    };
    expect(verified.status).toBe('valid');
    expect(verified.attestation.sig).toBe(certificate.sig);
  });

  it('when a key is revoked through the CLI, then both processes refuse it within 2 s (their key checks are cached for 1 s)', async () => {
    const { key, key_id } = await newKey(temp.dir, 'to-revoke', '--daily-limit', '1000');
    const status = async (api: ApiProcess) =>
      (await fetch(`${api.url}/api/screen/us/${t.fresh[0]}`, { headers: { 'X-API-Key': key } })).status;
    expect(await Promise.all(apis.map(status))).toEqual([200, 200]);
    await cli(temp.dir, 'keys', 'revoke', key_id);
    const revokedAt = performance.now();
    const refusedAfter = await Promise.all(
      apis.map(async (api) => {
        while ((await status(api)) !== 401) {
          if (performance.now() - revokedAt > 5_000) return Infinity;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return performance.now() - revokedAt;
      }),
    );
    for (const ms of refusedAfter) expect(ms).toBeLessThan(2_000);
  });
});
