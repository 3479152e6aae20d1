import { z } from 'zod';
import { FRAMEWORK_IDS, SHARIAH_FRAMEWORK_IDS } from '../../engine/index.ts';
import { ZAKAT_METHODS, ZAKAT_YEARS } from '../../engine/zakat/zakat-due.ts';
import { dateSchema, marketSchema, tickerSchema } from './requests.ts';
import { verdictStatusSchema } from './responses.ts';

/**
 * Request and response schemas of `POST /api/portfolio` (docs/api.md, "Portfolio"). Registered by
 * id in zod's global registry, so /openapi.json documents them; the MCP server reuses them.
 */

/** Holdings one request may carry (lines, a fund counting as one line). */
export const PORTFOLIO_HOLDINGS_MAX = 500;
/** How far weights may add up from 1 (one percentage point: rounded broker percentages). */
export const WEIGHT_TOLERANCE = 0.01;
/** The largest CSV upload: about 1,500 broker rows, well above the holdings limit. */
export const PORTFOLIO_CSV_LIMIT_BYTES = 64 * 1024;
/** Holdings of a fund's latest report read for its look-through. */
export const FUND_LOOK_THROUGH_MAX = 1_000;
/** Units per stock line. */
export const PORTFOLIO_UNITS_PER_STOCK = 1;
/** Units per fund line: its look-through costs what the largest ETF screen does (50 holdings). */
export const PORTFOLIO_UNITS_PER_FUND = 5;
/** Units per stock line and Shariah framework when a period asks for purification (one history walk each). */
export const PORTFOLIO_UNITS_PER_PURIFICATION = 2;
/** Units per stock line when zakat is asked for: what GET /api/zakat costs (two point-in-time reads). */
export const PORTFOLIO_UNITS_PER_ZAKAT = 2;

export const portfolioHoldingSchema = z
  .object({
    market: marketSchema.default('us'),
    ticker: tickerSchema,
    shares: z.number().positive('shares must be greater than 0').optional().meta({ description: 'shares held (fractions allowed)' }),
    value: z
      .number()
      .positive('value must be greater than 0')
      .optional()
      .meta({ description: 'market value held, in any one currency used for every holding' }),
    weight: z
      .number()
      .positive('weight must be greater than 0')
      .max(1, 'weight is a fraction of the portfolio, at most 1')
      .optional()
      .meta({ description: `share of the portfolio, 0 to 1; weights must add up to 1 ± ${WEIGHT_TOLERANCE}` }),
  })
  .meta({ description: 'one line: market, ticker and exactly one of shares, value or weight (the same one on every line)' });

export const portfolioBodySchema = z.object({
  holdings: z
    .array(portfolioHoldingSchema)
    .min(1, 'send at least one holding')
    .max(PORTFOLIO_HOLDINGS_MAX, `a portfolio takes at most ${PORTFOLIO_HOLDINGS_MAX} holdings`)
    .meta({ description: `1 to ${PORTFOLIO_HOLDINGS_MAX} holdings, each ticker once; a fund or ETF is looked through to its holdings` }),
  frameworks: z
    .array(z.string())
    .optional()
    .meta({
      description:
        `framework ids; omit for all: ${FRAMEWORK_IDS.join(', ')}; or ["custom:<slug>"] alone, one of the account's ` +
        'custom screens (its version in force today; no period with it)',
    }),
  period: z
    .object({
      from: dateSchema.meta({ description: 'YYYY-MM-DD from 2009-01-01 to today: first day held' }),
      to: dateSchema.optional().meta({ description: 'YYYY-MM-DD, on or after from, up to today (default today): last day held' }),
    })
    .optional()
    .meta({
      description: `purification owed for the period under each Shariah framework (${SHARIAH_FRAMEWORK_IDS.join(', ')}); needs holdings in shares`,
    }),
  zakat: z
    .object({
      method: z
        .enum(ZAKAT_METHODS)
        .default('long_term')
        .meta({ description: "long_term (AAOIFI SS 35, the company's zakatable assets) or trading" }),
      year: z.enum(ZAKAT_YEARS).default('lunar').meta({ description: 'lunar (2.5%) or solar (2.5775%)' }),
    })
    .optional()
    .meta({ description: 'zakat due today on each stock held directly (docs/frameworks/zakat.md); needs holdings in shares or value' }),
});

export type PortfolioBody = z.output<typeof portfolioBodySchema>;

const share = z.number().meta({ description: 'share of the portfolio value, 0..1' });

const decidingReasonSchema = z
  .object({
    code: z.string(),
    result: z.string(),
    message: z.string(),
    metric: z.string().optional(),
    value: z.number().optional(),
    threshold: z.number().optional(),
    filing_ref: z.string().optional(),
  })
  .meta({ id: 'PortfolioReason', description: "a reason whose result matches the verdict's status (the reasons that decided it)" });

const lookThroughSchema = z
  .object({
    as_of: z.string().meta({ description: "date of the fund's latest holdings report" }),
    holdings_in_report: z.number().int(),
    holdings_read: z.number().int(),
    covered_weight: z.number().meta({ description: 'share of the fund its read holdings make up; the rest counts as unknown' }),
    screened_weight: z.number().meta({ description: 'share of the fund held in companies with a current verdict' }),
  })
  .meta({ id: 'PortfolioLookThrough' });

const holdingResultSchema = z
  .object({
    market: z.string(),
    ticker: z.string(),
    name: z.string().nullable(),
    kind: z.enum(['stock', 'fund']),
    shares: z.number().nullable(),
    value: z.number().nullable(),
    price: z
      .number()
      .nullable()
      .meta({ description: 'with shares: the latest close (at most 45 days old, on today’s share basis) the shares are valued at' }),
    price_date: z.string().nullable().meta({ description: 'with shares: the trading day of that close' }),
    weight: share,
    snapshot_date: z.string().nullable(),
    expired: z.boolean().meta({ description: "the verdict is older than the cache's stale window: it counts as unknown" }),
    verdicts: z.record(z.string(), verdictStatusSchema).nullable().meta({ description: 'null: never screened, or a fund' }),
    counted_as: z
      .record(z.string(), z.enum(['compliant', 'non_compliant', 'questionable', 'unknown']))
      .meta({ description: 'how the holding counts in each framework (a fund: its look-through, not this)' }),
    deciding_reasons: z.record(z.string(), z.array(decidingReasonSchema)),
    look_through: lookThroughSchema.nullable(),
    frameworks: z
      .record(z.string(), z.object({ compliant: share, non_compliant: share, questionable: share, unknown: share }))
      .nullable()
      .meta({ description: "a fund: shares of the fund's value by status" }),
  })
  .meta({ id: 'PortfolioHoldingResult' });

const exposureSchema = z
  .object({
    market: z.string().nullable(),
    ticker: z.string().nullable().meta({ description: "null: the part of a fund its report's holdings do not cover" }),
    via: z.string().nullable().meta({ description: 'the fund it is held through; null when held directly' }),
    weight: share,
    status: z.string(),
    why: z.array(z.string()).meta({ description: 'the deciding reasons in words (not loaded for the part of a fund no report covers)' }),
  })
  .meta({ id: 'PortfolioExposure' });

const frameworkSummarySchema = z
  .object({
    compliant: share,
    non_compliant: share,
    questionable: share,
    unknown: share.meta({ description: 'insufficient_data, never screened, expired, or uncovered by a fund report' }),
    failing: z
      .array(exposureSchema)
      .meta({ description: 'non-compliant exposures, heaviest first, each company once (at most 100 listed; failing_count has all)' }),
    failing_count: z.number().int(),
    not_decided: z.array(exposureSchema).meta({ description: 'questionable and unknown exposures, heaviest first (at most 100 listed)' }),
    not_decided_count: z.number().int(),
  })
  .meta({ id: 'PortfolioFrameworkSummary' });

const purificationTotalSchema = z.object({
  currency: z.string(),
  amount: z.number().nullable().meta({ description: 'null unless every holding in this currency is complete (fail closed)' }),
  amount_known: z.number(),
  complete: z.boolean(),
});

const purificationHoldingSchema = z.object({
  market: z.string(),
  ticker: z.string(),
  currency: z.string().nullable(),
  amount: z.number().nullable(),
  complete: z.boolean(),
  error: z.string().nullable().meta({ description: 'why no amount could be computed (e.g. no snapshot in force)' }),
});

const purificationSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    computed: z.boolean(),
    note: z.string().nullable(),
    frameworks: z.record(
      z.string(),
      z.object({ method: z.string(), totals: z.array(purificationTotalSchema), holdings: z.array(purificationHoldingSchema) }),
    ),
  })
  .meta({ id: 'PortfolioPurification', description: 'purification owed for the period, per Shariah framework, per holding' });

const zakatSchema = z
  .object({
    as_of: z.string(),
    method: z.enum(ZAKAT_METHODS),
    year: z.enum(ZAKAT_YEARS),
    rate: z.number(),
    computed: z.boolean(),
    note: z.string().nullable(),
    totals: z.array(
      z.object({
        currency: z.string(),
        zakat_due: z.number().nullable().meta({ description: 'null unless every holding in this currency was computed (fail closed)' }),
        zakat_due_known: z.number(),
        complete: z.boolean(),
      }),
    ),
    holdings: z.array(
      z.object({
        market: z.string(),
        ticker: z.string(),
        currency: z.string(),
        status: z.enum(['computed', 'insufficient_data']),
        zakat_due: z.number().nullable(),
        missing: z.array(z.string()).meta({ description: 'each figure lacking (GET /api/zakat shows every figure with its filing)' }),
        filing: z.string().nullable().meta({ description: 'the filing in force (long_term)' }),
      }),
    ),
  })
  .meta({ id: 'PortfolioZakat', description: 'zakat due per stock held directly and in total per currency' });

export const portfolioResponseSchema = z
  .object({
    as_of: z.string().meta({ description: 'today (UTC): verdicts are the current snapshots' }),
    sized_by: z.enum(['shares', 'value', 'weight']),
    total_value: z.number().nullable().meta({ description: 'with shares or value: the sum of values; null with weights' }),
    frameworks_returned: z.array(z.string()),
    custom_screen: z
      .object({ slug: z.string(), base: z.string(), version: z.number().int().nullable(), effective_from: z.string().nullable() })
      .optional()
      .meta({ description: 'with frameworks: ["custom:<slug>"] only: the version in force today that judged every company' }),
    holdings: z.array(holdingResultSchema),
    coverage: z.object({
      funds: z.number().int(),
      fund_weight: share.meta({ description: 'share of the portfolio held in funds' }),
      fund_weight_covered: share.meta({ description: 'the part of that the funds’ reports cover' }),
    }),
    frameworks: z.record(z.string(), frameworkSummarySchema),
    purification: purificationSchema.nullable(),
    zakat: zakatSchema.nullable().meta({ description: 'null unless the request asked for zakat' }),
    csv: z
      .object({
        rows: z.number().int(),
        columns: z.record(z.string(), z.string()).meta({ description: 'which column was read for what' }),
        skipped: z.array(z.object({ row: z.number().int(), symbol: z.string(), why: z.string() })),
      })
      .optional()
      .meta({ description: 'only for a CSV upload: what was read' }),
  })
  .meta({ id: 'PortfolioResponse', description: 'a portfolio screened: per holding, per framework, purification' });
