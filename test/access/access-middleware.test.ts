import Koa from 'koa';
import Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declareEndpoint, grantOf } from '../../api/access-scope.ts';
import { errorHandler } from '../../api/middleware/error-handler.ts';
import type { AccessSetup } from '../../access/open-access.ts';
import { keyFor, meterUsed, openTestAccess } from '../support/access.ts';
import { listen } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * The middleware on its own, behind routes that declare the attest and forensic tags as
 * the real ones do, so the tier rules are checked independently of those endpoints' logic.
 */
describe('access middleware: tag rules', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    temp = await makeTempDir();
    access = await openTestAccess(temp.dir);
    const app = new Koa();
    app.use(errorHandler());
    const router = new Router();
    router.post(
      '/mint',
      declareEndpoint(() => ({ tag: 'attest', cost: 5 })),
      ...access.middleware,
      (ctx) => {
        ctx.body = { minted_by: grantOf(ctx)?.keyId, tier: grantOf(ctx)?.tier };
      },
    );
    router.get(
      '/fail',
      declareEndpoint(() => ({ tag: 'forensic', cost: 3 })),
      ...access.middleware,
      () => {
        throw new Error('boom');
      },
    );
    app.use(router.routes());
    server = await listen(app);
  });
  afterAll(async () => {
    await server.close();
    await access.close();
    await temp.cleanup();
  });

  const mint = (key: string) =>
    fetch(`${server.url}/mint`, { method: 'POST', headers: { 'X-API-Key': key } }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, unknown>,
    }));

  it('when a partner key lacks the explicit attest grant, then minting is 403; with it, 200 and 5 units', async () => {
    const plain = await keyFor(access, 'partner');
    const denied = await mint(plain.key);
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toMatch(/partner keys need the explicit endpoint grant 'attest'/);
    const granted = await keyFor(access, 'partner', { endpoints: ['screen', 'attest'] });
    const ok = await mint(granted.key);
    expect(ok).toEqual({ status: 200, body: { minted_by: granted.keyId, tier: 'partner' } });
    await access.meter.returnSpare();
    expect((await access.store.window(granted.keyId, 'daily'))?.used).toBe(5);
  });

  it('when a pro key with unrestricted endpoints mints, then it may; with only screen granted, then 403', async () => {
    expect((await mint((await keyFor(access, 'pro')).key)).status).toBe(200);
    expect((await mint((await keyFor(access, 'pro', { endpoints: ['screen'] })).key)).status).toBe(403);
  });

  it('when the handler fails with a 500, then the units are given back', async () => {
    const key = await keyFor(access, 'team');
    const response = await fetch(`${server.url}/fail`, { headers: { 'X-API-Key': key.key } });
    expect(response.status).toBe(500);
    await access.meter.returnSpare();
    expect(await meterUsed(access, key.keyId)).toBe(0);
  });
});
