import { z } from 'zod';
import { ZAKAT_METHODS, ZAKAT_YEARS } from '../../engine/zakat/zakat-due.ts';
import { dateSchema } from './requests.ts';

/**
 * Request and response schemas of `GET /api/zakat/{market}/{ticker}` (docs/frameworks/zakat.md).
 * Registered by id in zod's global registry, so /openapi.json documents them.
 */

/** A positive decimal number in a query string, at most 15 significant digits so it is read exactly. */
const AMOUNT_PATTERN = /^(?:\d{1,15}(?:\.\d{1,10})?|\.\d{1,10})$/;

const positiveAmount = (what: string) =>
  z
    .string()
    .regex(AMOUNT_PATTERN, `${what} must be a positive decimal number such as 120 or 1250.50 (no sign, exponent or thousands separator)`)
    .refine((text) => Number(text) > 0, `${what} must be greater than 0`);

export const zakatQuerySchema = z.object({
  shares: positiveAmount('shares')
    .optional()
    .meta({ description: 'shares held on the as-of date (fractions allowed); send shares or value, not both', example: '120' }),
  value: positiveAmount('value')
    .optional()
    .meta({ description: "market value held on the as-of date, in the listing's currency; send shares or value, not both" }),
  method: z.enum(ZAKAT_METHODS).default('long_term').meta({
    description:
      "long_term (default): the holder's share of the company's zakatable assets (AAOIFI Shari'ah Standard No. 35); trading: the market value",
  }),
  year: z.enum(ZAKAT_YEARS).default('lunar').meta({ description: 'lunar (default, 2.5%) or solar (2.5775%): the zakat year kept' }),
  as_of: dateSchema
    .optional()
    .meta({ description: 'YYYY-MM-DD from 2009-01-01 to today (default today): the zakat date; the filing in force and the close on it' }),
});

const nullableNumber = z.number().nullable();

const figureSchema = z
  .object({
    name: z.enum(['cash_and_equivalents', 'accounts_receivable', 'inventory', 'current_liabilities', 'shares_outstanding']),
    label: z.string(),
    role: z.enum(['asset', 'deduction', 'share_count']),
    value: nullableNumber.meta({ description: "the filing's figure; null when not reported" }),
    source: z
      .string()
      .nullable()
      .meta({ description: 'concept(s) and accession the figure came from, or why it is missing; null when the source does not say' }),
  })
  .meta({ id: 'ZakatFigure' });

export const zakatResponseSchema = z
  .object({
    market: z.string(),
    ticker: z.string(),
    name: z.string(),
    as_of: z.string(),
    method: z.enum(ZAKAT_METHODS),
    year: z.enum(ZAKAT_YEARS),
    rate: z.number().meta({ description: 'zakat rate of the year kept: 0.025 lunar, 0.025775 solar' }),
    currency: z.string().meta({ description: 'ISO 4217 listing currency of every amount' }),
    status: z.enum(['computed', 'insufficient_data']).meta({ description: 'insufficient_data: `missing` names each figure lacking' }),
    zakat_due: nullableNumber.meta({ description: 'zakat on the holding, rounded to cents; null unless computed' }),
    zakat_base: nullableNumber.meta({
      description: "what the rate applies to: the holding's share of net zakatable assets (long_term) or its market value (trading)",
    }),
    zakatable_assets_per_share: nullableNumber.meta({
      description: 'long_term: (cash + receivables + inventory − current liabilities) ÷ shares outstanding, at least 0, 6 decimals',
    }),
    net_zakatable_assets: nullableNumber.meta({
      description: "long_term: the company's cash + receivables + inventory − current liabilities",
    }),
    holding: z.object({
      shares: nullableNumber.meta({ description: 'shares held: as sent, or value ÷ close' }),
      market_value: nullableNumber.meta({ description: 'as sent, or shares × close' }),
      price: z
        .object({ date: z.string(), close: z.number() })
        .nullable()
        .meta({ description: "the latest close at most 7 days before as_of, on as_of's share basis; null when none" }),
    }),
    filing: z
      .object({ source_ref: z.string(), period_end: z.string(), filed_on: z.string(), splits_since_filing: z.number() })
      .nullable()
      .meta({ description: 'long_term: the filing in force on as_of (latest filed on or before it); null for trading or when none' }),
    figures: z.array(figureSchema).meta({ description: 'long_term: each figure with its filing source; empty for trading' }),
    missing: z.array(z.string()).meta({ description: 'each missing input, said plainly; empty when computed' }),
    notes: z.array(z.string()),
    rules: z.object({ long_term: z.string(), trading: z.string(), rate: z.string(), rounding: z.string() }),
    provenance: z.object({ data_sources: z.array(z.string()), synthetic: z.boolean(), notice: z.string().optional() }),
  })
  .meta({ id: 'ZakatResponse', description: "zakat on a holding of one company's shares, each figure with its filing" });
