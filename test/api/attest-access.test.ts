import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listKeys } from '../../access/administration.ts';
import type { AccessSetup } from '../../access/open-access.ts';
import { keyFor, openTestAccess } from '../support/access.ts';
import { serveAttestApi, type ServedAttestApi } from './support/attest-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

describe('minting under real access control (fs_live_ keys in the same service.db)', () => {
  let api: ServedAttestApi;
  let access: AccessSetup;
  const mint = async (ticker: string, standard: string, key?: string) => {
    const response = await fetch(`${api.url}/api/attest/us/${ticker}?standard=${standard}`, { method: 'POST', headers: key ? { 'X-API-Key': key } : {} });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const usedToday = (keyId: string) => listKeys(access.store).find((k) => k.key_id === keyId)!.usage.find((u) => u.window === 'daily')!.used;

  beforeAll(async () => {
    api = await serveAttestApi({
      accessFor: (dataDir) => {
        access = openTestAccess(dataDir);
        return access.middleware;
      },
    });
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    access?.close();
  });

  it('when a Pro key mints, then 200, the certificate records the minting key, and 5 units are used', async () => {
    const { key, keyId, account } = keyFor(access, 'pro');
    const { status, body } = await mint(api.t.fresh[0]!, 'shariah_aaoifi', key);
    expect(status).toBe(200);
    expect(usedToday(keyId)).toBe(5);
    const row = api.db.prepare('SELECT minted_by_key_id, minted_by_account FROM certificates WHERE cert_id = ?').get(body.cert_id) as Json;
    expect(row).toMatchObject({ minted_by_key_id: keyId, minted_by_account: account });
    expect(body.key_id).not.toBe(keyId); // key_id names the signing key, not the API key
  });

  it('when no key or an unknown key is sent, then 401', async () => {
    const none = await mint(api.t.fresh[0]!, 'shariah_aaoifi');
    expect(none.status).toBe(401);
    expect(none.body.detail).toMatch(/missing API key/);
    const wrong = await mint(api.t.fresh[0]!, 'shariah_aaoifi', 'fs_live_notarealkey');
    expect(wrong.status).toBe(401);
  });

  it('when a partner key lacks the attest grant, then 403 names the endpoint; with it, 200', async () => {
    const without = keyFor(access, 'partner', { endpoints: ['screen'] });
    const refused = await mint(api.t.fresh[1]!, 'shariah_djim', without.key);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/not provisioned for endpoint 'attest'/);
    const granted = keyFor(access, 'partner', { endpoints: ['screen', 'attest'] });
    expect((await mint(api.t.fresh[1]!, 'shariah_djim', granted.key)).status).toBe(200);
  });

  it("when the key owner's tier lapsed, then 403", async () => {
    const { key } = keyFor(access, 'team', { lapsed: true });
    const { status, body } = await mint(api.t.fresh[2]!, 'shariah_djim', key);
    expect(status).toBe(403);
    expect(JSON.stringify(body.detail)).toMatch(/lapsed/);
  });

  it('when the key is not provisioned for the market or the standard, then 403 names them and nothing is charged', async () => {
    const gbOnly = keyFor(access, 'partner', { markets: ['gb'] });
    const market = await mint(api.t.fresh[2]!, 'shariah_djim', gbOnly.key);
    expect(market.status).toBe(403);
    expect(market.body.detail).toMatch(/market 'us'/);
    expect(usedToday(gbOnly.keyId)).toBe(0);

    const bri = keyFor(access, 'partner', { frameworks: ['christian_bri'] });
    const framework = await mint(api.t.fresh[2]!, 'shariah_djim', bri.key);
    expect(framework.status).toBe(403);
    expect(framework.body.detail).toMatch(/framework\(s\) shariah_djim; it may see: christian_bri/);
    expect((await mint(api.t.fresh[2]!, 'christian_bri', bri.key)).status).toBe(200);
  });

  it('when an unrestricted key asks for service_consensus, then 403: the consensus needs its own grant', async () => {
    const { key } = keyFor(access, 'enterprise');
    const { status, body } = await mint(api.t.fresh[3]!, 'service_consensus', key);
    expect(status).toBe(403);
    expect(body.detail).toMatch(/service_consensus/);
  });

  it('when the quota cannot cover 5 more units, then 429; a refused mint (404) costs nothing', async () => {
    const { key, keyId } = keyFor(access, 'partner', { dailyLimit: 7 });
    expect((await mint(api.t.unscreened, 'shariah_djim', key)).status).toBe(404);
    expect(usedToday(keyId)).toBe(0);
    expect((await mint(api.t.fresh[4]!, 'shariah_djim', key)).status).toBe(200);
    const { status, body } = await mint(api.t.fresh[4]!, 'shariah_djim', key);
    expect(status).toBe(429);
    expect(JSON.stringify(body.detail)).toMatch(/quota exhausted/);
    expect(usedToday(keyId)).toBe(5);
  });

  it('when anyone verifies without a key under access control, then 200: verification is public and free', async () => {
    const { key, keyId } = keyFor(access, 'pro');
    const { body } = await mint(api.t.fresh[5]!, 'shariah_aaoifi', key);
    const response = await fetch(`${api.url}/api/attest/verify/${body.cert_id}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Json).status).toBe('valid');
    expect(usedToday(keyId)).toBe(5);
  });
});
