import type { Middleware } from 'koa';
import { AppError } from '../../common/app-error.ts';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
  type?: string;
}

/** Maps errors thrown by Koa's own parsers (body too large, bad JSON) to the statuses of docs/api.md. */
function fromHttpError(error: HttpLikeError): AppError | null {
  const status = error.status ?? error.statusCode;
  if (!status || status < 400 || status >= 500 || !error.expose) return null;
  if (status === 413) return new AppError(413, 'body_too_large', `request body too large: ${error.message ?? ''}`.trim());
  if (status === 400 || status === 415) {
    return new AppError(422, 'malformed_body', `malformed request body: ${error.message ?? 'could not parse'}; send a JSON object`);
  }
  return new AppError(status, 'http_error', error.message ?? 'request failed');
}

/**
 * The one road every error takes: expected failures become their status with a JSON `detail`;
 * anything else is logged and answered with a 500 that reveals no internals.
 */
export function errorHandler(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = caught instanceof AppError ? caught : fromHttpError(caught as HttpLikeError);
      if (error) {
        ctx.status = error.status;
        if (error.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(error.retryAfterSeconds));
        ctx.body = { detail: error.detail };
        return;
      }
      ctx.state.log?.error({ err: caught }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { detail: 'internal server error; retry after a moment' };
    }
  };
}
