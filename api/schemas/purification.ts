import { z } from 'zod';
import { SHARIAH_FRAMEWORK_IDS } from '../../engine/index.ts';
import { dateSchema, marketSchema, tickerSchema } from './requests.ts';

/**
 * Request and response schemas of `POST /api/purification` (docs/api.md, "Purification").
 * Registered by id in zod's global registry, so /openapi.json documents them.
 */

/** Lots one request may carry: each is a walk over the ticker's history, metered at the history rate. */
export const PURIFICATION_LOTS_MAX = 50;

export const purificationLotSchema = z.object({
  shares: z
    .number()
    .positive('shares must be greater than 0')
    .meta({ description: 'shares bought (fractions allowed), on the share basis of the purchase day; greater than 0' }),
  bought_on: dateSchema.meta({ description: 'YYYY-MM-DD, from 2009-01-01 to today: the first day held' }),
  sold_on: dateSchema.optional().meta({
    description: 'YYYY-MM-DD after bought_on, up to today: the day the lot was sold (not a day held); omit while it is still held',
  }),
});

export const purificationBodySchema = z.object({
  market: marketSchema,
  ticker: tickerSchema,
  framework: z.string().meta({ description: `a Shariah framework id: ${SHARIAH_FRAMEWORK_IDS.join(', ')}` }),
  lots: z
    .array(purificationLotSchema)
    .min(1, 'send at least one lot')
    .max(PURIFICATION_LOTS_MAX, `a request takes at most ${PURIFICATION_LOTS_MAX} lots`)
    .meta({ description: `1 to ${PURIFICATION_LOTS_MAX} lots of the same ticker` }),
});

const method = z.enum(['dividend_ratio', 'impermissible_income_per_share']);
const nullableNumber = z.number().nullable();

const methodTotalSchema = z
  .object({
    amount: nullableNumber.meta({ description: 'sum over every period, in `currency`; null unless complete (fail closed)' }),
    amount_known: z.number().meta({ description: 'sum over the periods whose inputs are known: a lower bound when incomplete' }),
    complete: z.boolean(),
    periods_missing: z.number().int().meta({ description: 'periods without this amount (each says why in `missing`)' }),
  })
  .meta({ id: 'PurificationTotal' });

const totalsSchema = z.object({
  dividend_based: methodTotalSchema,
  income_based: methodTotalSchema,
  framework_method: methodTotalSchema.meta({ description: "each period by the method the framework's verdict of that period names" }),
});

const periodSchema = z
  .object({
    from: z.string().meta({ description: 'first day of the period' }),
    through: z.string().meta({ description: 'last day held in the period' }),
    days: z.number().int(),
    snapshot: z
      .object({
        date: z.string(),
        status: z.enum(['compliant', 'non_compliant', 'questionable', 'insufficient_data']),
        framework_method: method.nullable(),
      })
      .nullable()
      .meta({ description: 'the point-in-time snapshot in force; null when none covers the period' }),
    filing: z
      .object({ source_ref: z.string(), period_end: z.string(), filed_on: z.string().nullable() })
      .nullable()
      .meta({ description: 'the filing behind the snapshot (an accession number for EDGAR filings)' }),
    non_permissible_income_ratio: nullableNumber.meta({ description: "the framework's non-permissible income ÷ total income, 0..1" }),
    estimate: z
      .string()
      .nullable()
      .meta({
        description:
          "why this period's amounts are estimates that may be too low as well as too high (a figure stands in for the one the formula names, " +
          'e.g. a net non-operating line for interest income); null when every figure is the one named',
      }),
    dividends_per_share_ttm: nullableNumber.meta({ description: "the filing's trailing-twelve-month dividends per share" }),
    dividend_ratio_per_share: nullableNumber.meta({ description: 'dividends per share × ratio (twelve months)' }),
    impermissible_income_per_share: nullableNumber.meta({ description: 'ratio × revenue ÷ shares outstanding (twelve months)' }),
    shares_on_filing_basis: nullableNumber.meta({ description: "the lot's shares adjusted for splits between purchase and filing" }),
    dividend_based: nullableNumber.meta({ description: 'shares × dividend_ratio_per_share × days ÷ 365' }),
    income_based: nullableNumber.meta({ description: 'shares × impermissible_income_per_share × days ÷ 365' }),
    currency: z.string(),
    missing: z.array(z.string()).meta({ description: 'each missing input, said plainly; empty when both amounts are known' }),
  })
  .meta({ id: 'PurificationPeriod' });

const lotResultSchema = z.object({
  shares: z.number(),
  bought_on: z.string(),
  sold_on: z.string().nullable(),
  held_through: z.string().meta({ description: 'last day held: the day before sold_on, or today while still held' }),
  days: z.number().int(),
  totals: totalsSchema,
  periods: z.array(periodSchema),
});

export const purificationResponseSchema = z
  .object({
    market: z.string(),
    ticker: z.string(),
    name: z.string(),
    framework: z.enum(SHARIAH_FRAMEWORK_IDS),
    method: method.meta({ description: "the framework's purification method (its current methodology version)" }),
    currency: z.string().meta({ description: 'ISO 4217 listing currency of every amount' }),
    amount_to_purify: nullableNumber.meta({
      description: "total by the framework's method (totals.framework_method.amount); null when any period lacks an input",
    }),
    complete: z.boolean(),
    estimated_periods: z
      .number()
      .int()
      .meta({ description: 'periods whose amounts are estimates (each says why in `estimate`); 0 when none' }),
    totals: totalsSchema,
    lots: z.array(lotResultSchema),
    rules: z.object({ dividend_based: z.string(), income_based: z.string(), periods: z.string() }),
    provenance: z.object({ data_sources: z.array(z.string()), synthetic: z.boolean(), notice: z.string().optional() }),
  })
  .meta({ id: 'PurificationResponse', description: 'the amount to purify for a holding, period by period with its evidence' });
