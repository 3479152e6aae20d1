import { z } from 'zod';
import { DOUBTS, FRAMEWORK_IDS } from '../../engine/index.ts';

/** Response schemas: they document the API in /openapi.json (responses are built by the use-cases). */

const status = z.enum(['compliant', 'non_compliant', 'questionable', 'insufficient_data']).meta({ id: 'VerdictStatus' });
export const verdictStatusSchema = status;
const nullableNumber = z.number().nullable();

export const errorSchema = z
  .object({ detail: z.union([z.string(), z.looseObject({ message: z.string(), upgrade_url: z.string().optional() })]) })
  .meta({ id: 'Error', description: 'every error: `detail` names what was wrong and the valid values' });

export const quotaExhaustedSchema = z
  .object({
    detail: z.object({
      message: z.string(),
      limits: z.array(
        z.object({
          window: z
            .enum(['daily', 'monthly'])
            .meta({ description: 'daily: 24 hours from the first call of the window; monthly: 30 days (partner keys)' }),
          limit: z.number().int(),
          used: z.number().int(),
          remaining: z.number().int(),
          resets_at: z.string().meta({ description: 'ISO 8601 UTC: when this window closes and the next call opens a new one' }),
          exhausted: z.boolean().meta({ description: 'true for the window(s) that refused this request' }),
        }),
      ),
      upgrade_url: z.string(),
    }),
  })
  .meta({ id: 'QuotaExhausted', description: 'a 429: which window refused the request, its limit, usage and reset time' });

export const reasonSchema = z
  .object({
    code: z.string().meta({ description: '`<framework>.<check>[.<detail>]`' }),
    result: z.enum(['pass', 'fail', 'questionable', 'insufficient_data', 'info']),
    message: z.string(),
    metric: z.string().optional(),
    value: z.number().optional(),
    threshold: z.number().optional(),
    operator: z.enum(['<', '<=', '>', '>=']).optional().meta({ description: 'passing condition: value <operator> threshold passes' }),
    within_limit: z.boolean().optional().meta({ description: 'value <operator> threshold, compared exactly on the input decimals' }),
    margin: z.number().optional().meta({
      description:
        'signed distance from value to threshold, in the value units: positive inside the limit, negative beyond it (engine 2.0.0 on)',
    }),
    near_limit: z.boolean().optional().meta({
      description:
        'value within 1 percentage point of a balance-sheet limit, or within 5% of a revenue limit; data only, never sets the result (engine 2.0.0 on)',
    }),
    doubt: z
      .enum(DOUBTS)
      .optional()
      .meta({ description: 'on a questionable result: the kind of genuine doubt behind it (engine 2.0.0 on)' }),
    band_low: z.number().optional().meta({ description: 'legacy: tolerance band of snapshots computed by engine 1.0.0' }),
    band_high: z.number().optional().meta({ description: 'legacy: tolerance band of snapshots computed by engine 1.0.0' }),
    band_basis: z.string().optional().meta({ description: 'legacy: why the engine 1.0.0 band existed' }),
    filing_ref: z.string().optional(),
    source: z.string().optional(),
    evidence_level: z
      .enum(['reviewed', 'vendor', 'filing', 'industry_code', 'none'])
      .optional()
      .meta({ description: 'business-activity reasons: what the absence of a screened activity rests on' }),
    origin: z
      .enum(['base', 'custom'])
      .optional()
      .meta({ description: "custom screens only: a reason of the base framework's stored verdict, or of the account's custom layer" }),
    inputs: z
      .array(z.object({ name: z.string(), value: nullableNumber, source: z.string().optional() }))
      .optional()
      .meta({
        description:
          'ratio checks on real filings: each figure behind the ratio (lake column name, value, null = not reported) and its source, ' +
          'concept(s) @ accession(s) or why it is missing',
      }),
  })
  .meta({ id: 'Reason', description: "one check of a framework (the engine's Reason)" });

export const frameworkResultSchema = z
  .object({
    id: z.enum(FRAMEWORK_IDS),
    status,
    score: nullableNumber.meta({
      description:
        '0..100: headroom for Shariah methodologies, the Shariah consensus score for service_consensus; null for exclusion screens, ' +
        'for insufficient_data, and for a consensus its undecided methodologies decide',
    }),
    methodology_version: z.string(),
    methodology_effective_from: z.string(),
    reasons: z.array(reasonSchema),
    purification: z
      .looseObject({
        method: z.string(),
        per_share: nullableNumber,
        non_permissible_income_ratio: nullableNumber,
        currency: z.string().nullable(),
        formula: z.string(),
      })
      .nullable(),
    components: z
      .array(z.object({ component: z.string(), weight: z.number(), status, value: nullableNumber }))
      .optional()
      .meta({ description: 'service_consensus only' }),
    coverage: z.number().optional().meta({ description: 'service_consensus only: share of the weight with a decisive status (0..1)' }),
    traditions: z
      .array(z.object({ framework: z.string(), status }))
      .optional()
      .meta({
        description: "service_consensus only: the other traditions' verdicts, shown beside the Shariah consensus, not counted in it",
      }),
  })
  .meta({ id: 'FrameworkResult' });

export const financialDataSchema = z
  .looseObject({
    market_cap: nullableNumber.meta({ description: 'spot market cap in the listing currency' }),
    market_cap_avg_24m: nullableNumber,
    market_cap_avg_36m: nullableNumber,
    currency: z.string(),
    ratios: z.record(z.string(), nullableNumber).meta({ description: 'ratios in 0..1 (may exceed 1), null when not computable' }),
    purification_per_share: nullableNumber,
    purification: z.looseObject({}).nullable(),
    filing: z.object({ source_ref: z.string(), period_end: z.string(), filed_on: z.string() }).nullable(),
    data_quality: z.array(reasonSchema),
    provenance: z.looseObject({
      synthetic: z.boolean(),
      notice: z.string().optional().meta({ description: 'plain-words warning, present when the data are synthetic' }),
      data_source: z.string(),
      snapshot_date: z.string(),
      screened_at: z.string(),
      snapshot_source: z.string(),
    }),
  })
  .meta({ id: 'FinancialData' });

export const screenResponseSchema = z
  .object({
    ticker: z.string(),
    market: z.string().meta({ description: 'the market key (the {market} path value)' }),
    report: z
      .looseObject({
        ticker: z.string(),
        company_name: z.string(),
        financial_data: financialDataSchema,
        frameworks_returned: z.array(z.enum(FRAMEWORK_IDS)),
        madhhab_views: z.looseObject({ strict: status, majority: status, lenient: status, agreement: z.string() }).optional(),
      })
      .meta({ description: 'plus one FrameworkResult per returned framework id, keyed by the id' }),
    from_cache: z.boolean(),
    cache_age_days: z.number().int(),
    stale: z.boolean(),
    refresh: z
      .enum(['started', 'already_running', 'unavailable'])
      .optional()
      .meta({ description: 'with stale data only: the background re-screen' }),
  })
  .meta({ id: 'ScreenResponse' });

export const snapshotResponseSchema = z
  .object({
    ticker: z.string(),
    market: z.string(),
    as_of: z.string(),
    snapshot_date: z.string(),
    screened_at: z.string().meta({ description: 'ISO 8601, UTC, without zone' }),
    source: z.string(),
    era: z.enum(['legacy', 'current']),
    data_quality: z.object({ warning: z.string(), engine_current_since: z.string() }).optional(),
    reasons_kept: z
      .enum(['all', 'deciding'])
      .optional()
      .meta({
        description:
          "with reasons=true: 'deciding' for a backfill snapshot, which stores only the checks that decided each verdict (passing " +
          "checks dropped, each kept reason with its filing_ref and inputs); 'all' otherwise",
      }),
    frameworks: z.record(
      z.string(),
      z.object({
        status,
        key_ratios: z.record(z.string(), nullableNumber),
        methodology_version: z.string().nullable().optional().meta({ description: 'with reasons=true' }),
        reasons: z
          .array(reasonSchema)
          .optional()
          .meta({ description: 'with reasons=true: the reasons stored with the snapshot, as in a screen report' }),
      }),
    ),
    market_cap: z.object({ spot: nullableNumber, avg_24m: nullableNumber, avg_36m: nullableNumber }),
    provenance: z.object({
      data_source: z.string(),
      synthetic: z.boolean(),
      notice: z.string().optional(),
      filing: z
        .object({ source_ref: z.string(), period_end: z.string(), filed_on: z.string() })
        .nullable()
        .optional()
        .meta({ description: 'with reasons=true: the filing behind the ratios (as in a screen report), null when none' }),
    }),
    historical: z.literal(true),
  })
  .meta({ id: 'SnapshotResponse' });

export const batchResponseSchema = z
  .object({
    requested: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    results: z.array(screenResponseSchema),
    errors: z.array(
      z.object({
        index: z.number().int(),
        market: z.string().nullable(),
        ticker: z.string().nullable(),
        status: z.number().int(),
        detail: errorSchema.shape.detail,
      }),
    ),
  })
  .meta({ id: 'BatchResponse' });

const bucketCounts = z.object({
  pass: z.number().int(),
  fail: z.number().int(),
  questionable: z.number().int(),
  unknown: z.number().int(),
  pass_weight: z.number(),
  fail_weight: z.number(),
  questionable_weight: z.number(),
  unknown_weight: z.number(),
});

export const etfResponseSchema = z
  .object({
    etf_ticker: z.string(),
    market: z.string(),
    fund_name: z.string().nullable(),
    as_of: z.string(),
    holdings_in_report: z.number().int(),
    holdings_screened: z.number().int(),
    covered_weight: z.number(),
    frameworks_returned: z.array(z.string()),
    holdings: z.array(
      z.object({
        market: z.string(),
        ticker: z.string(),
        company_name: z.string().nullable(),
        weight: z.number(),
        snapshot_date: z.string().nullable(),
        verdicts: z.record(z.string(), status).nullable(),
      }),
    ),
    framework_stats: z.record(z.string(), bucketCounts),
  })
  .meta({ id: 'EtfResponse' });

export const compareResponseSchema = z
  .object({
    market: z.string(),
    tickers: z.array(z.string()),
    frameworks_returned: z.array(z.string()),
    companies: z.record(z.string(), z.looseObject({ company_name: z.string(), snapshot_date: z.string(), stale: z.boolean() })),
    frameworks: z
      .record(z.string(), z.record(z.string(), z.union([status, z.boolean()])))
      .meta({ description: '{ id: { TICKER: status, ..., agree: bool } }' }),
    ratios: z.record(z.string(), z.record(z.string(), nullableNumber)).meta({ description: '{ ratio: { TICKER: value } }' }),
    differences: z.array(z.object({ framework: z.string(), statuses: z.record(z.string(), status) })),
    all_agree: z.boolean(),
  })
  .meta({ id: 'CompareResponse' });

export const frameworksResponseSchema = z
  .object({
    count: z.number().int(),
    frameworks: z.array(z.object({ id: z.string(), label: z.string(), tradition: z.string() })),
    key_scope: z
      .object({
        allowed_frameworks: z.array(z.string()).nullable(),
        allowed_markets: z.array(z.string()).nullable(),
        allowed_endpoints: z.array(z.string()).nullable(),
      })
      .optional(),
  })
  .meta({ id: 'FrameworksResponse' });

export const marketsResponseSchema = z
  .object({
    count: z.number().int(),
    markets: z.array(
      z.object({
        slug: z.string(),
        name: z.string(),
        market_key: z.string(),
        total_listed: z.number().int(),
        currency: z.string(),
        exchange_codes: z.array(z.string()),
        exchanges: z.array(z.object({ code: z.string(), name: z.string() })),
      }),
    ),
  })
  .meta({ id: 'MarketsResponse' });

export const searchResponseSchema = z
  .object({
    query: z.string(),
    count: z.number().int(),
    results: z.array(z.object({ ticker: z.string(), name: z.string(), market: z.string(), exchange: z.string(), kind: z.string() })),
  })
  .meta({ id: 'SearchResponse' });
