import Router from '@koa/router';
import type { Middleware } from 'koa';
import { declareEndpoint, grantOf } from '../access-scope.ts';
import { unauthorized } from '../../common/app-error.ts';
import { loadFrameworkPages, type FrameworkPage } from '../mcp/framework-resources.ts';
import { restClient } from '../mcp/rest-client.ts';

const MISSING_KEY = 'missing API key: send your key (it starts with fs_live_) in the X-API-Key header of every /mcp request';
const INVALID_KEY = 'invalid API key: it is unknown, revoked or mistyped; keys start with fs_live_ and are shown once at creation';

/**
 * `POST /mcp`: the MCP server over streamable HTTP (docs/mcp.md). The message itself is free;
 * with access control, it needs a live key (checked here, so a bad key is refused before any
 * tool runs), and each tool call is the REST call made with that key, which charges its units.
 * GET and DELETE (an event stream, a session to end) are 405: the endpoint keeps no sessions.
 */
export function mcpRoutes(access: Middleware[]): Router {
  const router = new Router();
  let pages: Promise<FrameworkPage[]> | undefined;
  router.post(
    '/mcp',
    declareEndpoint(() => ({ tag: 'public', cost: 0 })),
    ...access,
    async (ctx) => {
      const key = ctx.get('X-API-Key');
      // A public route lends a valid key its grant and ignores a bad one; here a bad one is refused.
      if (access.length > 0 && grantOf(ctx) === undefined) {
        throw key === '' ? unauthorized(MISSING_KEY, 'missing_api_key') : unauthorized(INVALID_KEY, 'invalid_api_key');
      }
      pages ??= loadFrameworkPages();
      // The MCP SDK loads with the first request (Node keeps it), not with the API: it is a large share of a start.
      const { answerMcpPost, loopbackBaseUrl } = await import('../mcp/http-endpoint.ts');
      const call = restClient({
        baseUrl: loopbackBaseUrl(ctx.req),
        apiKey: key === '' ? null : key,
        headers: { 'x-request-id': String(ctx.state.requestId) },
      });
      ctx.respond = false;
      await answerMcpPost(ctx.req, ctx.res, ctx.request.body, call, await pages);
    },
  );
  return router;
}
