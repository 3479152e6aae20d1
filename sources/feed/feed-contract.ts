import { ACTIVITY_CODES, INVOLVEMENTS, NO_SCREENED_ACTIVITY, type ExposureEvidence } from '../../engine/inputs.ts';
import type { SourceTable } from '../../warehouse/source-contract.ts';

/**
 * The vendor-feed contract (docs/data/feed-contract.md): which files a delivery folder may
 * hold, their columns, and what each value must look like. Every rule here is enforced on
 * every row before anything is published.
 */

export type FeedValueKind =
  | 'text'
  | 'market'
  | 'date'
  | 'number'
  | 'non_negative'
  | 'share'
  | 'kind'
  | 'activity'
  | 'boolean'
  | 'sic'
  | 'currency'
  | 'mic'
  | 'country'
  | 'ratio'
  | 'evidence'
  | 'involvement'
  | 'split_basis';

export interface FeedColumn {
  name: string;
  kind: FeedValueKind;
  required: boolean;
  doc: string;
}

export interface FeedTable {
  table: SourceTable;
  columns: readonly FeedColumn[];
}

const req = (name: string, kind: FeedValueKind, doc: string): FeedColumn => ({ name, kind, required: true, doc });
const opt = (name: string, kind: FeedValueKind, doc: string): FeedColumn => ({ name, kind, required: false, doc });

export const FEED_TABLES: readonly FeedTable[] = [
  {
    table: 'listings',
    columns: [
      req('market', 'market', 'market key (docs/data/markets.md)'),
      req('ticker', 'text', 'ticker symbol'),
      req('name', 'text', 'company or fund name'),
      req('exchange_mic', 'mic', 'ISO 10383 MIC of the listing exchange'),
      req('kind', 'kind', "'stock' or 'fund'"),
      req('currency', 'currency', 'ISO 4217 code of prices and amounts'),
      req('sic', 'sic', '4-digit SIC code (may be empty when unknown)'),
      opt('heter_iska', 'boolean', 'operates under a heter iska (true/false, empty = unknown)'),
      opt('operates_on_shabbat', 'boolean', 'business operates on Shabbat (true/false, empty = unknown)'),
      opt(
        'jewish_controlled',
        'boolean',
        "controlled (majority ownership or management) by Jews (true/false, empty = unknown: presumed from the issuer's domicile)",
      ),
      opt(
        'domicile',
        'country',
        'ISO 3166-1 alpha-2 code of the issuer: its country of incorporation, or IL when its business address is in Israel (empty = unknown)',
      ),
      opt('sic_description', 'text', 'SIC industry title'),
      opt('listed_on', 'date', 'first trading day'),
      opt('source_ref', 'text', "vendor's record id"),
    ],
  },
  {
    table: 'fundamentals',
    columns: [
      req('market', 'market', 'market key'),
      req('ticker', 'text', 'ticker symbol'),
      req('period_end', 'date', 'end of the fiscal period'),
      req('filed_on', 'date', 'date the figures became public (never before period_end)'),
      req('source_ref', 'text', 'filing identifier'),
      req('currency', 'currency', 'ISO 4217 code of the amounts'),
      req('total_assets', 'non_negative', 'total assets'),
      req('total_debt', 'non_negative', 'interest-bearing debt'),
      req('cash_and_equivalents', 'non_negative', 'cash and cash equivalents'),
      req('interest_bearing_investments', 'non_negative', 'interest-bearing securities and deposits'),
      req('accounts_receivable', 'non_negative', 'trade receivables'),
      req('total_revenue', 'non_negative', "trailing twelve months' revenue"),
      req('interest_income', 'non_negative', "trailing twelve months' interest income"),
      req('shares_outstanding', 'non_negative', 'shares outstanding'),
      opt('dividends_per_share', 'non_negative', "trailing twelve months' dividends per share"),
      opt('total_liabilities', 'non_negative', 'total liabilities'),
      opt('total_equity', 'number', "shareholders' equity"),
      opt('current_assets', 'non_negative', 'current assets'),
      opt('current_liabilities', 'non_negative', 'current liabilities'),
      opt('inventory', 'non_negative', 'inventories, net'),
      opt('retained_earnings', 'number', 'retained earnings'),
      opt('net_income', 'number', "trailing twelve months' net income"),
      opt('ebit', 'number', "trailing twelve months' operating income"),
      opt('operating_cash_flow', 'number', "trailing twelve months' operating cash flow"),
      opt('gross_profit', 'number', "trailing twelve months' gross profit"),
      opt('ppe_net', 'non_negative', 'property, plant and equipment, net'),
      opt('long_term_investments', 'non_negative', 'long-term securities and investments'),
      opt('long_term_debt', 'non_negative', 'long-term debt, non-current portion'),
      opt('depreciation', 'non_negative', "trailing twelve months' depreciation and amortisation"),
      opt('sga_expense', 'non_negative', "trailing twelve months' selling, general and administrative expense"),
    ],
  },
  {
    table: 'prices',
    columns: [
      req('market', 'market', 'market key'),
      req('ticker', 'text', 'ticker symbol'),
      req('date', 'date', 'trading date'),
      req('close', 'non_negative', 'closing price'),
      req('currency', 'currency', 'ISO 4217 code of the price'),
      opt(
        'split_adjusted_through',
        'date',
        'the close is adjusted for every stock split up to this date; empty = the price as traded that day',
      ),
    ],
  },
  {
    table: 'exposures',
    columns: [
      req('market', 'market', 'market key'),
      req('ticker', 'text', 'ticker symbol'),
      req('as_of', 'date', 'date the exposure became known'),
      req(
        'activity',
        'activity',
        `activity code (docs/data/activities.md), or '${NO_SCREENED_ACTIVITY}' with revenue_share 0: reviewed, no screened activity`,
      ),
      req('revenue_share', 'share', 'share of revenue, 0..1'),
      req('source_ref', 'text', "vendor's reference"),
      opt(
        'evidence',
        'evidence',
        "what the figure rests on: 'reported', 'filing_concept', 'retired_concept', 'filing_dimension' or 'curated' (empty = 'reported')",
      ),
      opt(
        'involvement',
        'involvement',
        "how the company takes part: 'producer', 'distributor', 'retailer' or 'ancillary' (empty = not reported)",
      ),
    ],
  },
  {
    table: 'splits',
    columns: [
      req('market', 'market', 'market key'),
      req('ticker', 'text', 'ticker symbol'),
      req('ex_date', 'date', 'first trading day on the new share basis'),
      req('ratio', 'ratio', "new shares per old share: a number (4, 0.1) or 'new:old' text ('4:1', '1:10')"),
      opt('source_ref', 'text', "vendor's reference (empty = the file and line)"),
    ],
  },
  {
    table: 'fund_holdings',
    columns: [
      req('fund_market', 'market', "fund's market key"),
      req('fund_ticker', 'text', "fund's ticker"),
      req('as_of', 'date', 'holdings report date'),
      req('market', 'market', "holding's market key"),
      req('ticker', 'text', "holding's ticker"),
      req('weight', 'share', 'weight in the fund, 0..1; a fund-date sums to at most 1'),
    ],
  },
];

/** Columns that may be left empty even though they must be present. */
export const EMPTY_ALLOWED = new Set([
  'sic',
  'total_debt',
  'interest_bearing_investments',
  'accounts_receivable',
  'interest_income',
  'shares_outstanding',
]);

/** Activity codes an exposure row may carry: the engine's codes plus "reviewed: no screened activity". */
export const FEED_ACTIVITIES: readonly string[] = [...ACTIVITY_CODES, NO_SCREENED_ACTIVITY];

const EVIDENCE_LEVELS: Record<ExposureEvidence, true> = {
  reported: true,
  filing_concept: true,
  retired_concept: true,
  filing_dimension: true,
  curated: true,
};

/** Values of an exposure's `evidence` column (docs/data/activities.md, "Evidence levels"). */
export const FEED_EVIDENCE: readonly string[] = Object.keys(EVIDENCE_LEVELS);

/** Values of an exposure's `involvement` column (docs/data/activities.md, "Involvement"). */
export const FEED_INVOLVEMENTS: readonly string[] = INVOLVEMENTS;

/** Value of an override's `split_adjusted_through` saying the closes are as traded, not split-adjusted. */
export const AS_TRADED = 'as_traded';

/** File names a delivery may use for a table: `<table>.csv`, `<table>.parquet`, or `<table>-<part>.csv|parquet`. */
export function feedTableOf(fileName: string): SourceTable | undefined {
  const match = /^([a-z_]+?)(?:-[A-Za-z0-9_.-]+)?\.(csv|parquet)$/.exec(fileName);
  if (!match) return undefined;
  return FEED_TABLES.find((t) => t.table === match[1])?.table;
}
