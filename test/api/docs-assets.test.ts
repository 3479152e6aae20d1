import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../api/middleware/error-handler.ts';
import { docsRoutes } from '../../api/routes/docs.ts';
import { listen } from '../support/http.ts';

describe('/docs/assets over HTTP', () => {
  let server: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    const app = new Koa();
    app.silent = true;
    app.use(errorHandler());
    app.use(docsRoutes('http://127.0.0.1').routes());
    server = await listen(app);
  });
  afterAll(() => server?.close());

  it('when an asset name is a property every object has (constructor, __proto__, toString), then 404 naming the assets, never 500', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'nope.js']) {
      const response = await fetch(`${server.url}/docs/assets/${name}`);
      expect(response.status, name).toBe(404);
      expect(((await response.json()) as { detail: string }).detail, name).toBe(
        `no docs asset '${name}'; the assets are swagger-ui.css, swagger-ui-bundle.js`,
      );
    }
  });

  it('when a real asset is asked for, then it is served with its type', async () => {
    const response = await fetch(`${server.url}/docs/assets/swagger-ui.css`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/css/);
  });
});
