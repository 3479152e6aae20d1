import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import { parseConfig } from '../../platform/config.ts';
import { accessOptionsOf } from '../../platform/service-state.ts';
import { keyFor } from '../support/access.ts';
import { freePort } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { buildLake, createTestApi, type TestApi } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

describe('/account/upgrade, where upgrade_url points by default', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let api: TestApi;
  let server: Server;
  let url: string;
  let ticker: string;

  beforeAll(async () => {
    temp = await makeTempDir();
    ticker = (await buildLake(temp.dir)).fresh[0]!;
    // The configuration of an operator who set neither UPGRADE_URL nor PUBLIC_BASE_URL: the port must be known first.
    const port = await freePort();
    const config = parseConfig({ DATA_DIR: temp.dir, PORT: String(port), UPGRADE_CONTACT: 'sales@faithscreen.test' });
    access = await openAccess({ ...accessOptionsOf(config), authCacheMs: 0 });
    api = await createTestApi(temp.dir, undefined, access.middleware, {
      accountPages: { store: access.store, hashSecret: access.hashSecret, contact: config.UPGRADE_CONTACT },
    });
    server = api.app.listen(port, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${port}`;
  }, 120_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await api?.reads.close();
    await api?.forensic.close();
    await access?.close();
    await temp?.cleanup();
  });

  it('when a lapsed key is refused, then its upgrade_url is /account/upgrade of this server, and that page answers with the tiers', async () => {
    const lapsed = await keyFor(access, 'pro', { lapsed: true });
    const refused = await fetch(`${url}/api/screen/us/${ticker}`, { headers: { 'X-API-Key': lapsed.key } });
    expect(refused.status).toBe(403);
    const upgradeUrl = ((await refused.json()) as Json).detail.upgrade_url as string;
    expect(upgradeUrl).toBe(`${url}/account/upgrade`);

    const page = await fetch(upgradeUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    const html = await page.text();
    expect(html).toContain('<h1>Plans and upgrade</h1>');
    expect(html).toContain('data-tier="pro"');
    expect(html).toContain('href="mailto:sales@faithscreen.test"');
  });

  it('when a key is out of units, then the 429 sends to the same page', async () => {
    const tight = await keyFor(access, 'pro', { dailyLimit: 1 });
    expect((await fetch(`${url}/api/screen/us/${ticker}`, { headers: { 'X-API-Key': tight.key } })).status).toBe(200);
    const refused = await fetch(`${url}/api/screen/us/${ticker}`, { headers: { 'X-API-Key': tight.key } });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as Json).detail.upgrade_url).toBe(`${url}/account/upgrade`);
  });

  it('when the key pages are asked for without the sign-in layer, then they are not served', async () => {
    expect((await fetch(`${url}/account/api-keys`)).status).toBe(404);
  });
});
