import type { FrameworkId } from '../../engine/index.ts';
import type { Grant } from '../../common/grants.ts';
import { assertMarketGranted } from '../access-scope.ts';
import { AppError } from '../../common/app-error.ts';
import { batchItemSchema } from '../schemas/requests.ts';
import type { ScreenService } from '../screen-service.ts';
import { checkMarket, normaliseTicker, parseRequest } from '../validation.ts';
import {
  loadStoredResults,
  renderReport,
  prerenderedReport,
  reportWithoutRead,
  screenResponseAround,
  serveScreen,
  type ScreenOutcome,
} from './screen-ticker.ts';
import { inLanes } from '../../common/lanes.ts';

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

/** Every failure becomes that item's error entry, never the batch's. */
function itemError(service: ScreenService, item: unknown, index: number, error: unknown): BatchError {
  const known = error instanceof AppError;
  if (!known) service.logger?.error({ err: error, index }, 'batch item failed');
  return {
    index,
    market: textField(item, 'market'),
    ticker: textField(item, 'ticker'),
    status: known ? error.status : 500,
    detail: known ? error.detail : 'internal server error while screening this item; retry after a moment',
  };
}

/** Which snapshot answers one item (memory, or a re-screen). */
async function resolveItem(
  service: ScreenService,
  request: BatchRequest,
  item: unknown,
  index: number,
): Promise<ScreenOutcome | BatchError> {
  try {
    const parsed = parseRequest(batchItemSchema, item, 'body');
    const market = checkMarket(parsed.market, 'market');
    const ticker = normaliseTicker(parsed.ticker, 'ticker');
    assertMarketGranted(market, request.grant);
    return await serveScreen(service, { market, ticker, forceRefresh: request.forceRefresh });
  } catch (error) {
    return itemError(service, item, index, error);
  }
}

export interface BatchOutcome {
  /** The batch response (docs/api.md) as UTF-8 JSON. */
  json: Buffer;
  /** Items answered with an error (they cost nothing). */
  failed: number;
}

function isError(value: unknown): value is BatchError {
  return typeof value === 'object' && value !== null && 'status' in value && 'index' in value;
}

/**
 * The batch response (docs/api.md): `requested, succeeded, failed, results, errors`, results in request
 * order. Items are resolved first; reports the report cache holds are taken as they are, and the
 * stored results of the rest are read together (one call to the serving store, not one per item)
 * and rendered; a render refused because the render threads' queue is full is that item's 503.
 */
export async function screenBatch(service: ScreenService, request: BatchRequest): Promise<BatchOutcome> {
  const resolved = new Array<ScreenOutcome | BatchError>(request.items.length);
  await inLanes(request.items.length, CONCURRENCY, async (index) => {
    resolved[index] = await resolveItem(service, request, request.items[index], index);
  });
  const ready = new Map<ScreenOutcome, Buffer>();
  resolved.forEach((o, index) => {
    if (isError(o)) return;
    try {
      const report = reportWithoutRead(service, o, request.frameworks);
      if (report !== null) ready.set(o, report);
    } catch (error) {
      resolved[index] = itemError(service, request.items[index], index, error);
    }
  });
  // Pre-rendered default reports (one read each) before reading results to render.
  await Promise.all(
    resolved.map(async (o) => {
      if (isError(o) || ready.has(o)) return;
      const report = await prerenderedReport(service, o, request.frameworks).catch(() => null);
      if (report !== null) ready.set(o, report);
    }),
  );
  const toRead = resolved.filter((o): o is ScreenOutcome => !isError(o) && !ready.has(o));
  const results = new Map<ScreenOutcome, Buffer>();
  try {
    const loaded = await loadStoredResults(
      service,
      toRead.map((o) => o.row),
    );
    toRead.forEach((o, i) => results.set(o, loaded[i]!));
  } catch {
    // Some row failed: each item then reads its own, so the failure stays that item's error.
  }
  const outcomes = await Promise.all(
    resolved.map(async (o, index) => {
      if (isError(o)) return o;
      const report = ready.get(o);
      if (report !== undefined) return screenResponseAround(o, report);
      try {
        return screenResponseAround(o, await renderReport(service, o, request.frameworks, results.get(o)));
      } catch (error) {
        return itemError(service, request.items[index], index, error);
      }
    }),
  );
  const done = outcomes.filter((o): o is Buffer => Buffer.isBuffer(o));
  const errors = outcomes.filter((o): o is BatchError => !Buffer.isBuffer(o));
  const comma = Buffer.from(',');
  const json = Buffer.concat([
    Buffer.from(`{"requested":${request.items.length},"succeeded":${done.length},"failed":${errors.length},"results":[`),
    ...done.flatMap((result, i) => (i === 0 ? [result] : [comma, result])),
    Buffer.from(`],"errors":${JSON.stringify(errors)}}`),
  ]);
  return { json, failed: errors.length };
}
