import { utcDay } from '../../engine/dates.ts';
import { AppError } from '../../common/app-error.ts';
import type { Grant } from '../../common/grants.ts';
import { inLanes } from '../../common/lanes.ts';
import { assertMarketGranted } from '../access-scope.ts';
import { batchItemSchema } from '../schemas/requests.ts';
import type { ScreenService } from '../screen-service.ts';
import { checkMarket, normaliseTicker, parseRequest } from '../validation.ts';
import type { CustomScreenContext } from './manage-custom-screens.ts';
import type { BatchError } from './screen-batch.ts';
import { customAnswer, loadCustomScreen, screenInForce } from './screen-custom.ts';

/** Items answered at once, as the built-in batch does. */
const CONCURRENCY = 8;

export interface CustomBatchRequest {
  items: readonly unknown[];
  slug: string;
  grant: Grant | undefined;
}

function textField(item: unknown, field: string): string | null {
  const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value : null;
}

/**
 * `POST /api/screen/batch` with `frameworks: ["custom:<slug>"]`: each ticker's custom verdict on
 * its current snapshot under the version in force today, in the batch response's shape
 * (`requested, succeeded, failed, results, errors`); an item's failure is that item's error entry.
 */
export async function screenCustomBatch(service: ScreenService, screens: CustomScreenContext | undefined, request: CustomBatchRequest) {
  const record = await loadCustomScreen(screens, request.slug, request.grant);
  const applied = screenInForce(record, utcDay(service.now()), request.grant);
  const answers = new Array<unknown>(request.items.length);
  await inLanes(request.items.length, CONCURRENCY, async (index) => {
    const item = request.items[index];
    try {
      const parsed = parseRequest(batchItemSchema, item, 'body');
      const market = checkMarket(parsed.market, 'market');
      const ticker = normaliseTicker(parsed.ticker, 'ticker');
      assertMarketGranted(market, request.grant);
      answers[index] = await customAnswer(service, applied, market, ticker, null);
    } catch (error) {
      if (!(error instanceof AppError)) service.logger?.error({ err: error, index }, 'custom batch item failed');
      const failed: BatchError = {
        index,
        market: textField(item, 'market'),
        ticker: textField(item, 'ticker'),
        status: error instanceof AppError ? error.status : 500,
        detail: error instanceof AppError ? error.detail : 'internal server error while screening this item; retry after a moment',
      };
      answers[index] = failed;
    }
  });
  const errors = answers.filter((a): a is BatchError => typeof a === 'object' && a !== null && 'status' in a && 'index' in a);
  const results = answers.filter((a) => !errors.includes(a as BatchError));
  return { requested: request.items.length, succeeded: results.length, failed: errors.length, results, errors };
}
