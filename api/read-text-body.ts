import type { Context } from 'koa';
import { AppError } from '../common/app-error.ts';

/**
 * The request body as UTF-8 text, at most `limitBytes` (413 beyond): for bodies the JSON parser
 * leaves unread (a CSV upload, a form with pasted holdings). An oversized body is still read to
 * its end without being kept, so the client receives the 413 rather than a reset connection.
 */
export async function readTextBody(ctx: Context, limitBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limitBytes) chunks.push(chunk);
  }
  if (size > limitBytes)
    throw new AppError(413, 'body_too_large', `request body too large: the limit is ${Math.round(limitBytes / 1024)} kB`);
  return Buffer.concat(chunks).toString('utf8');
}
