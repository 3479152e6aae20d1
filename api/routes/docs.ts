import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import { notFound } from '../../common/app-error.ts';
import { buildOpenApi } from '../openapi/build-openapi.ts';

const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = { 'swagger-ui.css': 'text/css', 'swagger-ui-bundle.js': 'application/javascript' };

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>faithscreen API</title>
<meta name="robots" content="noindex"><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true });`;

/** `/openapi.json` and a human docs page at `/docs` (Swagger UI served from node_modules: no CDN). */
export function docsRoutes(baseUrl: string): Router {
  const router = new Router();
  const document = JSON.stringify(buildOpenApi(baseUrl));
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = document;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html';
    ctx.body = PAGE;
  });
  router.get('/docs/init.js', (ctx) => {
    ctx.type = 'application/javascript';
    ctx.body = INIT;
  });
  router.get('/docs/assets/:file', async (ctx) => {
    // An own property only: 'constructor' or '__proto__' must not reach the prototype.
    const type = Object.hasOwn(ASSETS, ctx.params.file!) ? ASSETS[ctx.params.file!] : undefined;
    if (!type) throw notFound(`no docs asset '${ctx.params.file}'; the assets are ${Object.keys(ASSETS).join(', ')}`);
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await readFile(path.join(SWAGGER_DIR, ctx.params.file!));
  });
  return router;
}
