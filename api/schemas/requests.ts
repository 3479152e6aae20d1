import { z } from 'zod';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import { MARKET_KEYS } from '../../common/markets.ts';

/**
 * Request schemas: the same zod objects validate requests (api/validation.ts) and generate the
 * OpenAPI document (api/openapi/). Type errors are malformed shapes (422); range, format and
 * enum errors are invalid values (400).
 */

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** Upper case letters and digits, then also `.` and `-` (BRK.B, RDS-A, 7203), at most 20 characters. */
export const TICKER_PATTERN = /^[A-Z0-9][A-Z0-9.-]{0,19}$/;
export const BATCH_MAX = 100;

const marketKeys = MARKET_KEYS as [string, ...string[]];

export const marketSchema = z
  .enum(marketKeys)
  .meta({ description: 'market key from GET /api/markets (ISO 3166-1 alpha-2, lower case)', example: 'us' });
export const tickerSchema = z
  .string()
  .min(1)
  .max(20)
  .meta({ description: 'ticker symbol; case-insensitive (normalised to upper case); letters, digits, `.` and `-`', example: 'AAPL' });
export const frameworkIdSchema = z.enum(FRAMEWORK_IDS);
export const dateSchema = z.string().regex(DATE_PATTERN, 'expected a date YYYY-MM-DD');
const booleanText = z.enum(['true', 'false', '1', '0']);

export const screenPathSchema = z.object({ market: marketSchema, ticker: tickerSchema });

export const screenQuerySchema = z.object({
  framework: z
    .string()
    .max(400)
    .optional()
    .meta({
      description:
        `comma-separated framework ids (response filter only): ${FRAMEWORK_IDS.join(', ')}; ` +
        "or, alone, custom:<slug> for one of the key's account's custom screens (docs/custom-screens.md)",
    }),
  as_of: dateSchema.optional().meta({ description: 'YYYY-MM-DD from 2009-01-01 to today: the point-in-time verdict from history' }),
  force_refresh: booleanText.optional().meta({ description: 'true re-screens from source data, bypassing the cache' }),
  reasons: booleanText.optional().meta({
    description:
      'with as_of only: true adds the reasons stored with each verdict (read from the serving store like a report); without as_of it is 400, ' +
      'a screen report always carries its reasons',
  }),
});

export const timelineQuerySchema = z.object({
  framework: z
    .string()
    .max(400)
    .optional()
    .meta({
      description:
        `comma-separated framework ids (response filter only): ${FRAMEWORK_IDS.join(', ')}; ` +
        "or custom:<slug> alone, one of the account's custom screens (its version in force today judges every snapshot)",
    }),
  from: dateSchema
    .optional()
    .meta({ description: "YYYY-MM-DD from 2009-01-01 to today: first day of the range (default: the ticker's first snapshot)" }),
  to: dateSchema
    .optional()
    .meta({ description: 'YYYY-MM-DD from 2009-01-01 to today, on or after from: last day of the range (default: today)' }),
});

export const batchItemSchema = z
  .object({ market: z.string(), ticker: z.string() })
  .meta({ description: 'one ticker to screen; market is a market key' });

export const batchBodySchema = z.object({
  tickers: z
    .array(batchItemSchema)
    .min(1, 'send at least one ticker')
    .max(BATCH_MAX, `a batch takes at most ${BATCH_MAX} tickers`)
    .meta({ description: `1 to ${BATCH_MAX} {market, ticker} objects; each is validated on its own` }),
  frameworks: z
    .array(z.string())
    .optional()
    .meta({ description: "framework ids to return; omit for all 10; or, alone, custom:<slug> for one of the account's custom screens" }),
  force_refresh: z.boolean().optional(),
});

/** The batch body with items left unchecked, so one bad item becomes an entry of `errors`. */
export const batchEnvelopeSchema = batchBodySchema.extend({
  tickers: z.array(z.unknown()).min(1, 'send at least one ticker').max(BATCH_MAX, `a batch takes at most ${BATCH_MAX} tickers`),
});

export const etfBodySchema = z.object({
  etf_ticker: tickerSchema,
  market: marketSchema.default('us'),
  max_holdings: z.number().int().min(1).max(50).default(15).meta({ description: 'top holdings by weight, 1 to 50' }),
  framework: z
    .string()
    .optional()
    .meta({ description: "custom:<slug>: the holdings under one of the account's custom screens instead of every framework" }),
});

export const compareQuerySchema = z.object({
  tickers: z.string().min(1).max(100).meta({ description: '2 to 4 comma-separated tickers of one market', example: 'AAPL,MSFT' }),
  market: marketSchema.default('us'),
  framework: z.string().max(400).optional().meta({
    description: "comma-separated framework ids (response filter only); or, alone, custom:<slug> for one of the account's custom screens",
  }),
});

export const searchQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'q must not be empty')
    .max(64)
    .meta({ description: 'ticker prefix or part of the company name (case- and accent-insensitive)' }),
  market: marketSchema.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20).meta({ description: '1 to 50' }),
});

export const exportQuerySchema = z.object({
  market: marketSchema,
  date: dateSchema.optional().meta({ description: "YYYY-MM-DD: that day's snapshots instead of the current verdicts" }),
});
