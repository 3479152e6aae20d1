import type { FrameworkId } from '../../engine/index.ts';
import { assertMarketGranted, type Grant } from '../access-scope.ts';
import { AppError } from '../errors.ts';
import { batchItemSchema } from '../schemas/requests.ts';
import type { ScreenContext } from '../screen-context.ts';
import { checkMarket, normaliseTicker, parseRequest } from '../validation.ts';
import { screenResponseJson, screenTicker } from './screen-ticker.ts';

export interface BatchRequest {
  items: readonly unknown[];
  frameworks: readonly FrameworkId[];
  forceRefresh: boolean;
  grant: Grant | undefined;
}

export interface BatchError {
  index: number;
  market: string | null;
  ticker: string | null;
  status: number;
  detail: unknown;
}

/** Items screened at once: enough to overlap re-screens, few enough not to flood the workflow service. */
const CONCURRENCY = 8;

function textField(item: unknown, field: string): string | null {
  const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value : null;
}

/** Screens one item; every failure becomes that item's error entry, never the batch's. */
async function screenItem(ctx: ScreenContext, request: BatchRequest, item: unknown, index: number): Promise<string | BatchError> {
  try {
    const parsed = parseRequest(batchItemSchema, item, 'body');
    const market = checkMarket(parsed.market, 'market');
    const ticker = normaliseTicker(parsed.ticker, 'ticker');
    assertMarketGranted(market, request.grant);
    const outcome = await screenTicker(ctx, { market, ticker, forceRefresh: request.forceRefresh });
    return await screenResponseJson(ctx, outcome, request.frameworks);
  } catch (error) {
    const known = error instanceof AppError;
    if (!known) ctx.logger?.error({ err: error, index }, 'batch item failed');
    return {
      index,
      market: textField(item, 'market'),
      ticker: textField(item, 'ticker'),
      status: known ? error.status : 500,
      detail: known ? error.detail : 'internal server error while screening this item; retry after a moment',
    };
  }
}

export interface BatchOutcome {
  /** The spec's batch response as JSON text. */
  json: string;
  /** Items answered with an error (they cost nothing). */
  failed: number;
}

/** The spec's batch response: `requested, succeeded, failed, results, errors`, results in request order. */
export async function screenBatch(ctx: ScreenContext, request: BatchRequest): Promise<BatchOutcome> {
  const outcomes = new Array<string | BatchError>(request.items.length);
  let next = 0;
  const worker = async () => {
    while (next < request.items.length) {
      const index = next++;
      outcomes[index] = await screenItem(ctx, request, request.items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, request.items.length) }, worker));
  const results = outcomes.filter((o): o is string => typeof o === 'string');
  const errors = outcomes.filter((o): o is BatchError => typeof o !== 'string');
  const json = `{"requested":${request.items.length},"succeeded":${results.length},"failed":${errors.length},"results":[${results.join(',')}],"errors":${JSON.stringify(errors)}}`;
  return { json, failed: errors.length };
}
