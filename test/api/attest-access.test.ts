import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessSetup } from '../../access/open-access.ts';
import { keyFor, openTestAccess } from '../support/access.ts';
import { serveAttestApi, type ServedAttestApi } from './support/attest-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

describe('minting under real access control (fs_live_ keys in the same service.db)', () => {
  let api: ServedAttestApi;
  let access: AccessSetup;
  const mint = async (ticker: string, standard: string, key?: string) => {
    const response = await fetch(`${api.url}/api/attest/us/${ticker}?standard=${standard}`, {
      method: 'POST',
      headers: key ? { 'X-API-Key': key } : {},
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    api = await serveAttestApi({
      accessFor: async (dataDir) => {
        access = await openTestAccess(dataDir);
        return access.middleware;
      },
    });
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await access?.close();
  });

  it('when a Pro key mints, then 200 and the certificate records the minting key', async () => {
    const { key, keyId, account } = await keyFor(access, 'pro');
    const { status, body } = await mint(api.t.fresh[0]!, 'shariah_aaoifi', key);
    expect(status).toBe(200);
    const row = await api.db.get<Json>('SELECT minted_by_key_id, minted_by_account FROM certificates WHERE cert_id = ?', [
      body.cert_id as string,
    ]);
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

  it('when anyone verifies, with no key or a stray invalid one, then the certificate is checked: verification is public', async () => {
    const { key } = await keyFor(access, 'pro');
    const minted = await mint(api.t.fresh[0]!, 'shariah_djim', key);
    expect(minted.status).toBe(200);
    for (const headers of [{}, { 'X-API-Key': 'fs_live_notarealkey' }] as Array<Record<string, string>>) {
      const response = await fetch(`${api.url}/api/attest/verify/${minted.body.cert_id}`, { headers });
      expect(response.status).toBe(200);
      expect(((await response.json()) as Json).status).toBe('valid');
    }
  });

  it('when a partner key lacks the attest grant (restricted or unrestricted), then 403 names it; with it, 200', async () => {
    for (const request of [{ endpoints: ['screen'] }, {}]) {
      const without = await keyFor(access, 'partner', request);
      const refused = await mint(api.t.fresh[1]!, 'shariah_djim', without.key);
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toMatch(/'attest'/);
    }
    const granted = await keyFor(access, 'partner', { endpoints: ['screen', 'attest'] });
    expect((await mint(api.t.fresh[1]!, 'shariah_djim', granted.key)).status).toBe(200);
  });

  it("when the key owner's tier lapsed, then 403", async () => {
    const { key } = await keyFor(access, 'team', { lapsed: true });
    const { status, body } = await mint(api.t.fresh[2]!, 'shariah_djim', key);
    expect(status).toBe(403);
    expect(JSON.stringify(body.detail)).toMatch(/lapsed/);
  });

  it('when the key is not provisioned for the market or the standard, then 403 names them and nothing is charged', async () => {
    const gbOnly = await keyFor(access, 'partner', { markets: ['gb'], endpoints: ['attest'], dailyLimit: 5 });
    const market = await mint(api.t.fresh[2]!, 'shariah_djim', gbOnly.key);
    expect(market.status).toBe(403);
    expect(market.body.detail).toMatch(/market 'us'/);
    // The refused mint was given back: the key's 5 units still cover one mint in its own market.
    const gbTicker = api.reads
      .listings('gb')
      .find((l) => api.reads.current('gb', l.ticker)?.statuses.shariah_djim !== 'insufficient_data')!.ticker;
    expect(
      (await fetch(`${api.url}/api/attest/gb/${gbTicker}?standard=shariah_djim`, { method: 'POST', headers: { 'X-API-Key': gbOnly.key } }))
        .status,
    ).toBe(200);

    const bri = await keyFor(access, 'partner', { frameworks: ['christian_bri'], endpoints: ['attest'] });
    const framework = await mint(api.t.fresh[2]!, 'shariah_djim', bri.key);
    expect(framework.status).toBe(403);
    expect(framework.body.detail).toMatch(/framework\(s\) shariah_djim; it may see: christian_bri/);
    expect((await mint(api.t.fresh[2]!, 'christian_bri', bri.key)).status).toBe(200);
  });

  it('when an unrestricted key asks for service_consensus, then 403: the consensus needs its own grant', async () => {
    const { key } = await keyFor(access, 'enterprise');
    const { status, body } = await mint(api.t.fresh[3]!, 'service_consensus', key);
    expect(status).toBe(403);
    expect(body.detail).toMatch(/service_consensus/);
  });

  it('when the quota cannot cover another mint, then 429; a mint costs exactly 5 units and a refused one (404) nothing', async () => {
    // Daily limit 10: a 404, then two mints fit and a third does not, so a mint costs more than 10/3 and at most 5, a 404 nothing.
    const ten = await keyFor(access, 'partner', { dailyLimit: 10, endpoints: ['attest'] });
    expect((await mint(api.t.unscreened, 'shariah_djim', ten.key)).status).toBe(404);
    expect((await mint(api.t.fresh[4]!, 'shariah_djim', ten.key)).status).toBe(200);
    expect((await mint(api.t.fresh[4]!, 'shariah_djim', ten.key)).status).toBe(200);
    const { status, body } = await mint(api.t.fresh[4]!, 'shariah_djim', ten.key);
    expect(status).toBe(429);
    expect(JSON.stringify(body.detail)).toMatch(/quota exhausted/);
    // Daily limit 9: one mint fits, a second does not, so a mint costs more than 4.5 units: 5.
    const nine = await keyFor(access, 'partner', { dailyLimit: 9, endpoints: ['attest'] });
    expect((await mint(api.t.fresh[4]!, 'shariah_djim', nine.key)).status).toBe(200);
    expect((await mint(api.t.fresh[4]!, 'shariah_djim', nine.key)).status).toBe(429);
  });

  it('when anyone verifies under access control, then 200 with no key, and with a key whose quota is spent: verification is public and free', async () => {
    const { key } = await keyFor(access, 'partner', { dailyLimit: 5, endpoints: ['attest'] });
    const { body } = await mint(api.t.fresh[5]!, 'shariah_aaoifi', key);
    expect((await mint(api.t.fresh[5]!, 'shariah_aaoifi', key)).status).toBe(429);
    for (const headers of [{}, { 'X-API-Key': key }] as Array<Record<string, string>>) {
      const response = await fetch(`${api.url}/api/attest/verify/${body.cert_id}`, { headers });
      expect(response.status).toBe(200);
      expect(((await response.json()) as Json).status).toBe('valid');
    }
  });
});
