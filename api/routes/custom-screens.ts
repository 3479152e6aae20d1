import Router from '@koa/router';
import type { Middleware } from 'koa';
import { declareEndpoint, grantOf } from '../access-scope.ts';
import { createCustomScreenBodySchema, updateCustomScreenBodySchema } from '../schemas/custom-screens.ts';
import {
  createCustomScreen,
  deleteCustomScreen,
  getCustomScreen,
  listCustomScreens,
  updateCustomScreen,
  type CustomScreenContext,
} from '../use-cases/manage-custom-screens.ts';
import { parseRequest } from '../validation.ts';

/**
 * Quota units (docs/custom-screens.md): writing a version (create, PUT) checks it against the
 * base's rule tables and stores it (1); reading and deleting are free. Screening with a custom
 * screen costs what the endpoint costs with any framework.
 */
export const CUSTOM_SCREEN_COSTS = { write: 1, read: 0, delete: 0 } as const;

/** An account's custom screens (docs/custom-screens.md), under the `screen` tag; a key sees only its own account's. */
export function customScreenRoutes(context: CustomScreenContext, access: Middleware[]): Router {
  const router = new Router({ prefix: '/api/screens' });
  const noStore: Middleware = async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
  const costs = (cost: number) => declareEndpoint(() => ({ tag: 'screen', cost }));

  router.post('/', costs(CUSTOM_SCREEN_COSTS.write), ...access, noStore, async (ctx) => {
    const body = parseRequest(createCustomScreenBodySchema, ctx.request.body ?? {}, 'body');
    ctx.status = 201;
    ctx.body = await createCustomScreen(context, body, grantOf(ctx));
  });

  router.get('/', costs(CUSTOM_SCREEN_COSTS.read), ...access, noStore, async (ctx) => {
    ctx.body = await listCustomScreens(context, grantOf(ctx));
  });

  router.get('/:slug', costs(CUSTOM_SCREEN_COSTS.read), ...access, noStore, async (ctx) => {
    ctx.body = await getCustomScreen(context, ctx.params.slug!, grantOf(ctx));
  });

  router.put('/:slug', costs(CUSTOM_SCREEN_COSTS.write), ...access, noStore, async (ctx) => {
    const body = parseRequest(updateCustomScreenBodySchema, ctx.request.body ?? {}, 'body');
    ctx.body = await updateCustomScreen(context, ctx.params.slug!, body, grantOf(ctx));
  });

  router.delete('/:slug', costs(CUSTOM_SCREEN_COSTS.delete), ...access, noStore, async (ctx) => {
    ctx.body = await deleteCustomScreen(context, ctx.params.slug!, grantOf(ctx));
  });

  return router;
}
