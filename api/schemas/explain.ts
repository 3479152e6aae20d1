import { z } from 'zod';
import { DIFFERENCE_KINDS } from '../../engine/explain/disagreements.ts';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import { dateSchema } from './requests.ts';

/**
 * Request and response schemas of `GET /api/screen/{market}/{ticker}/explain`
 * (docs/frameworks/README.md, "Why frameworks disagree"). Registered by id in zod's global
 * registry, so /openapi.json documents them.
 */

export const explainQuerySchema = z.object({
  framework: z
    .string()
    .max(400)
    .optional()
    .meta({ description: `comma-separated framework ids to compare (default all the key may see): ${FRAMEWORK_IDS.join(', ')}` }),
  as_of: dateSchema
    .optional()
    .meta({ description: 'YYYY-MM-DD from 2009-01-01 to today: explain the snapshot in force on that day instead of the current one' }),
});

const status = z.enum(['compliant', 'non_compliant', 'questionable', 'insufficient_data']);
const nullableNumber = z.number().nullable();

const checkSideSchema = z
  .object({
    code: z.string(),
    result: z.enum(['pass', 'fail', 'questionable', 'insufficient_data', 'info']),
    metric: z.string().nullable(),
    numerator: z.string().nullable().meta({ description: 'what the ratio divides, in words; null when not a ratio' }),
    denominator: z.string().nullable().meta({ description: 'what it divides by, window included ("the 36-month average market value")' }),
    window: z.enum(['spot', '24m', '36m']).nullable(),
    value: nullableNumber.meta({ description: 'the figure measured (0..1); null when it could not be computed' }),
    threshold: nullableNumber.meta({ description: 'the published limit (0..1)' }),
    operator: z.string().nullable().meta({ description: 'the passing condition: value <operator> threshold' }),
    margin: nullableNumber.meta({ description: 'signed distance to the limit: positive inside it, negative beyond' }),
    near_limit: z.boolean(),
    doubt: z.string().nullable(),
    filing_ref: z.string().nullable(),
    message: z.string().meta({ description: "the check's own message" }),
    stored: z
      .boolean()
      .meta({ description: 'false when the snapshot kept only deciding checks and this one was recomputed from its ratio' }),
  })
  .meta({ id: 'ExplainedCheckSide' });

const sideSchema = z.object({
  framework: z.enum(FRAMEWORK_IDS),
  status,
  check: checkSideSchema.nullable().meta({ description: 'the framework’s check on the topic; null when it has none' }),
  words: z.string(),
});

const checkSchema = z
  .object({
    topic: z.string().meta({ description: 'debt, cash, receivables, liquidity, income, business.<activity>, or the check’s own name' }),
    differences: z
      .array(z.enum(DIFFERENCE_KINDS))
      .meta({ description: 'what makes the two checks come out differently (near_limit on an agreement)' }),
    sides: z.array(sideSchema).length(2),
    explanation: z.string().meta({ description: 'both sides in plain words, with figure, denominator, window, limit and outcome' }),
  })
  .meta({ id: 'ExplainedCheck' });

const pairSchema = z
  .object({
    frameworks: z.array(z.enum(FRAMEWORK_IDS)).length(2),
    statuses: z.array(status).length(2),
    agree: z.boolean(),
    checks: z.array(checkSchema),
    summary: z.string(),
  })
  .meta({ id: 'FrameworkPairExplanation' });

export const explainResponseSchema = z
  .object({
    market: z.string(),
    ticker: z.string(),
    company_name: z.string(),
    as_of: z.string().nullable().meta({ description: 'the as_of asked for; null for the current snapshot' }),
    snapshot_date: z.string(),
    reasons_kept: z.enum(['all', 'deciding']),
    statuses: z.record(z.string(), status),
    disagreements: z
      .array(pairSchema)
      .meta({ description: 'every pair of Shariah methodologies, and of faith frameworks, whose verdicts differ' }),
    near_limit_agreements: z.array(pairSchema).meta({ description: 'pairs that agree while a check of either is near its limit' }),
    provenance: z.object({
      data_source: z.string(),
      synthetic: z.boolean(),
      notice: z.string().optional(),
      filing: z.object({ source_ref: z.string(), period_end: z.string(), filed_on: z.string() }).nullable(),
    }),
  })
  .meta({ id: 'ExplainResponse', description: 'why the frameworks disagree on one company, check by check' });
