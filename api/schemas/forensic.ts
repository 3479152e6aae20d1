import { z } from 'zod';
import { dateSchema, marketSchema, tickerSchema } from './requests.ts';

/**
 * Request and response schemas of the forensic endpoints (docs/forensic.md). Registered by id in zod's
 * global registry, so /openapi.json documents them.
 */

export const FORENSIC_PEERS_MAX = 50;
export const FORENSIC_PEERS_DEFAULT = 5;

export const forensicPathSchema = z.object({ ticker: tickerSchema });

export const forensicQuerySchema = z.object({
  market: marketSchema.optional().meta({
    description: 'market key: picks the listing when the ticker is listed in several markets (default: US first, else the only one)',
  }),
  as_of: dateSchema
    .optional()
    .meta({ description: 'YYYY-MM-DD from 2009-01-01 to today: use only filings filed on or before it (default today, UTC)' }),
});

export const forensicPeersQuerySchema = forensicQuerySchema.extend({
  n: z.coerce
    .number()
    .int()
    .min(1)
    .max(FORENSIC_PEERS_MAX)
    .default(FORENSIC_PEERS_DEFAULT)
    .meta({ description: `peers to return, 1 to ${FORENSIC_PEERS_MAX} (default ${FORENSIC_PEERS_DEFAULT})` }),
});

const nullableNumber = z.number().nullable();
const scoreStatus = z.enum(['ok', 'insufficient_data', 'not_applicable']);

const thresholdSchema = z.object({
  operator: z.enum(['<', '<=', '>', '>=']),
  value: z.number(),
  reading: z.string().meta({ description: '`score <operator> value` means this reading; the first that holds applies' }),
});

const figureUsedSchema = z.object({
  field: z.string().meta({ description: 'lake column (docs/warehouse.md) or market_value_of_equity' }),
  period: z.enum(['current', 'prior', 'prior2']),
  period_end: z.string(),
  value: z.number().meta({ description: 'listing currency (shares for shares_outstanding)' }),
  source_ref: z.string().meta({ description: 'the filing the figure came from' }),
  filed_on: z.string(),
});

const missingSchema = z.object({
  field: z.string().meta({ description: "the figure, 'period' for a whole missing period, 'ratio' for a zero denominator" }),
  period: z.enum(['current', 'prior', 'prior2']),
  period_end: z.string().nullable(),
  reason: z.string(),
});

export const forensicScoreSchema = z
  .object({
    status: scoreStatus,
    value: nullableNumber.meta({ description: 'the score, rounded for display (readings compare the unrounded value); null unless ok' }),
    reading: z.string().nullable(),
    method: z.object({ name: z.string(), formula: z.string(), source: z.string() }),
    periods: z.array(z.string()).meta({ description: 'period ends read, newest first' }),
    inputs: z.array(figureUsedSchema),
    thresholds: z.array(thresholdSchema),
    notes: z.array(z.string()),
    components: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'the indices, ratios or signals the score is made of (shown even when insufficient, where computable)' }),
    missing: z.array(missingSchema).optional().meta({ description: 'insufficient_data only: every figure and period that was missing' }),
    reason: z.string().optional().meta({ description: 'not_applicable only' }),
  })
  .meta({ id: 'ForensicScore', description: 'one forensic score with its inputs, the filings they came from, thresholds and reading' });

export const forensicHealthSchema = z
  .object({
    status: z.enum(['ok', 'insufficient_data']),
    value: nullableNumber.meta({ description: '0..100, one decimal' }),
    reading: z.string().nullable().meta({ description: 'strong (≥ 70), moderate (≥ 40), weak (< 40)' }),
    coverage: z
      .number()
      .meta({ description: 'share of the weight whose score was available, 0..1; below 0.5 the score is insufficient_data' }),
    components: z.array(
      z.object({
        component: z.enum(['altman', 'piotroski', 'beneish', 'sloan', 'benford']),
        weight: z.number(),
        sub_score: nullableNumber.meta({ description: '0..100' }),
        status: scoreStatus,
        value: nullableNumber,
        reading: z.string().nullable(),
        rule: z.string(),
      }),
    ),
    thresholds: z.array(thresholdSchema),
    formula: z.string(),
  })
  .meta({ id: 'ForensicHealthScore', description: 'the composite 0–100 health score and its components (docs/forensic.md)' });

const periodRefSchema = z.object({ period_end: z.string(), filed_on: z.string(), source_ref: z.string(), currency: z.string() }).nullable();

const provenanceSchema = z
  .object({
    data_source: z.string(),
    synthetic: z.boolean(),
    notice: z.string().optional().meta({ description: 'plain-words warning, present when the data are synthetic' }),
    as_of: z.string(),
    filings_considered: z.number().int(),
  })
  .meta({ id: 'ForensicProvenance' });

const companyFields = {
  ticker: z.string(),
  market: z.string(),
  company_name: z.string(),
  sic: z.string().nullable(),
  sic_description: z.string().nullable(),
  currency: z.string(),
  as_of: z.string(),
  periods: z
    .object({ current: periodRefSchema, prior: periodRefSchema, prior2: periodRefSchema })
    .meta({ description: 'the latest period end and the same date one and two years earlier' }),
};

const scoreLine = z.object({ status: scoreStatus, value: nullableNumber, reading: z.string().nullable() });

export const forensicReportSchema = z
  .object({
    ...companyFields,
    scores: z.object({
      beneish_m_score: forensicScoreSchema,
      altman_z_score: forensicScoreSchema,
      piotroski_f_score: forensicScoreSchema,
      sloan_accrual_ratio: forensicScoreSchema,
      benford_first_digit: forensicScoreSchema,
    }),
    health_score: forensicHealthSchema,
    history: z
      .array(
        z.object({
          period_end: z.string(),
          source_ref: z.string(),
          filed_on: z.string(),
          beneish_m_score: scoreLine,
          altman_z_score: scoreLine.extend({ variant: z.string().nullable() }),
          piotroski_f_score: scoreLine,
          sloan_accrual_ratio: scoreLine,
        }),
      )
      .meta({
        description:
          'the trend, newest first: the scores at the latest period end and the same date in up to 4 earlier years, each against ' +
          'its own prior year (stops at the first missing year)',
      }),
    provenance: provenanceSchema,
  })
  .meta({ id: 'ForensicReport' });

export const forensicHealthResponseSchema = z
  .object({ ...companyFields, health_score: forensicHealthSchema, provenance: provenanceSchema })
  .meta({ id: 'ForensicHealthResponse' });

const scoreSummary = scoreLine;

const peerEntrySchema = z
  .object({
    rank: z.number().int().optional().meta({ description: 'peers only: 1 = closest match' }),
    ticker: z.string(),
    company_name: z.string(),
    sic: z.string().nullable(),
    sic_description: z.string().nullable(),
    match: z.enum(['company', 'sic4', 'sic2']),
    total_assets: nullableNumber,
    total_assets_period_end: z.string().nullable(),
    size_distance: nullableNumber.meta({ description: '|ln(peer assets / company assets)|' }),
    scores: z.object({
      beneish_m_score: scoreSummary,
      altman_z_score: scoreSummary.extend({ variant: z.string().nullable() }),
      piotroski_f_score: scoreSummary,
      sloan_accrual_ratio: scoreSummary,
      benford_first_digit: scoreSummary,
      health_score: scoreSummary,
    }),
  })
  .meta({ id: 'ForensicPeerEntry' });

export const forensicPeersResponseSchema = z
  .object({
    ticker: z.string(),
    market: z.string(),
    as_of: z.string(),
    n: z.number().int(),
    returned: z.number().int(),
    ranking: z.object({
      rule: z.string(),
      scope: z.string(),
      sic: z.string().nullable(),
      major_group: z.string().nullable(),
      widened_to_major_group: z.boolean(),
      note: z.string().optional(),
    }),
    company: peerEntrySchema,
    peers: z.array(peerEntrySchema),
    company_position: z
      .object({ by: z.literal('health_score'), rank: z.number().int(), of: z.number().int() })
      .nullable()
      .meta({ description: "the company's place among itself and the peers with a health score, 1 = healthiest" }),
    provenance: provenanceSchema,
  })
  .meta({ id: 'ForensicPeersResponse' });
