import { FRAMEWORK_IDS } from '../engine/frameworks.ts';
import type { LakeTable } from './lake-paths.ts';
import { SNAPSHOT_RATIOS } from '../common/snapshot-ratios.ts';

/**
 * The column layout of every lake table: the contract of the Parquet files and of the catalog's
 * views. Partition columns are not stored in the files; they come from the Hive folder names.
 * Amounts are in units of the listing's currency; shares and weights are in 0..1.
 */
export interface ColumnSpec {
  name: string;
  /** DuckDB type of the column in the Parquet files and views. */
  type: 'VARCHAR' | 'DATE' | 'TIMESTAMP' | 'DOUBLE' | 'BOOLEAN' | 'INTEGER';
  doc: string;
}

export interface TableSchema {
  table: LakeTable;
  /** Hive partition keys, outermost first, with their types. */
  partitions: ReadonlyArray<{ name: string; type: 'VARCHAR' | 'INTEGER' }>;
  columns: readonly ColumnSpec[];
}

const c = (name: string, type: ColumnSpec['type'], doc: string): ColumnSpec => ({ name, type, doc });

const provenance = [
  c('data_source', 'VARCHAR', "adapter that produced the row: 'sample', 'edgar' or 'feed'"),
  c('synthetic', 'BOOLEAN', "true for the generated sample universe: not any real company's data"),
];

/** Figures beyond the screening inputs that forensic scores and zakat use; optional in every source. */
export const FORENSIC_COLUMNS = [
  c('total_liabilities', 'DOUBLE', 'total liabilities'),
  c('total_equity', 'DOUBLE', "shareholders' equity (may be negative)"),
  c('current_assets', 'DOUBLE', 'current assets'),
  c('current_liabilities', 'DOUBLE', 'current liabilities'),
  c('inventory', 'DOUBLE', 'inventories, net (goods for sale, work in progress, materials): a zakatable asset'),
  c('retained_earnings', 'DOUBLE', 'retained earnings (accumulated deficit when negative)'),
  c('net_income', 'DOUBLE', "trailing twelve months' net income"),
  c('ebit', 'DOUBLE', "trailing twelve months' operating income (EBIT)"),
  c('operating_cash_flow', 'DOUBLE', "trailing twelve months' cash from operations"),
  c('gross_profit', 'DOUBLE', "trailing twelve months' gross profit"),
  c('ppe_net', 'DOUBLE', 'property, plant and equipment, net of depreciation'),
  c('long_term_investments', 'DOUBLE', 'long-term (non-current) securities and investments'),
  c('long_term_debt', 'DOUBLE', 'long-term debt, non-current portion'),
  c('depreciation', 'DOUBLE', "trailing twelve months' depreciation and amortisation"),
  c('sga_expense', 'DOUBLE', "trailing twelve months' selling, general and administrative expense"),
] as const;

export const LISTINGS_SCHEMA: TableSchema = {
  table: 'listings',
  partitions: [{ name: 'market', type: 'VARCHAR' }],
  columns: [
    c('ticker', 'VARCHAR', 'ticker symbol on its exchange'),
    c('name', 'VARCHAR', 'company or fund name'),
    c('exchange_mic', 'VARCHAR', 'ISO 10383 MIC of the listing exchange'),
    c('kind', 'VARCHAR', "'stock' or 'fund'"),
    c('currency', 'VARCHAR', 'ISO 4217 currency of prices and amounts'),
    c('sic', 'VARCHAR', '4-digit SIC industry code, null when unknown'),
    c('sic_description', 'VARCHAR', 'SIC industry title'),
    c('heter_iska', 'BOOLEAN', 'operates under a heter iska; null = unknown'),
    c('operates_on_shabbat', 'BOOLEAN', 'business operates on Shabbat; null = unknown'),
    c(
      'jewish_controlled',
      'BOOLEAN',
      "controlled (majority ownership or management) by Jews; null = unknown, presumed from the issuer's domicile (docs/frameworks/jewish_halakhic.md)",
    ),
    c(
      'domicile',
      'VARCHAR',
      'ISO 3166-1 alpha-2 code of the issuer: country of incorporation, or IL when its business address is in Israel; null = unknown',
    ),
    c('listed_on', 'DATE', 'first trading day known to the source, null when unknown'),
    c('source_ref', 'VARCHAR', 'reference of the record in its source'),
    ...provenance,
  ],
};

export const FUNDAMENTALS_SCHEMA: TableSchema = {
  table: 'fundamentals',
  partitions: [{ name: 'market', type: 'VARCHAR' }],
  columns: [
    c('ticker', 'VARCHAR', 'ticker symbol'),
    c('period_end', 'DATE', 'end of the fiscal period the filing reports'),
    c('filed_on', 'DATE', 'date the filing became public (point-in-time key)'),
    c('source_ref', 'VARCHAR', 'filing identifier, e.g. an EDGAR accession number'),
    c('currency', 'VARCHAR', 'ISO 4217 currency of the amounts'),
    c('total_assets', 'DOUBLE', 'total assets at period end'),
    c('total_debt', 'DOUBLE', 'interest-bearing debt, short and long term'),
    c('cash_and_equivalents', 'DOUBLE', 'cash and cash equivalents'),
    c('interest_bearing_investments', 'DOUBLE', 'interest-bearing securities and deposits'),
    c('accounts_receivable', 'DOUBLE', 'trade receivables'),
    c('total_revenue', 'DOUBLE', "trailing twelve months' total revenue"),
    c('interest_income', 'DOUBLE', "trailing twelve months' interest income"),
    c('shares_outstanding', 'DOUBLE', 'shares outstanding at or after period end'),
    c('dividends_per_share', 'DOUBLE', "trailing twelve months' dividends per share"),
    ...FORENSIC_COLUMNS,
    c(
      'figure_sources',
      'VARCHAR',
      'where each figure came from: JSON object of input name → concept(s) and accession, plus `interest_income_at_least`, a number: ' +
        'a proven lower bound of a null or estimated interest income, and `<input>_estimated: true` for a figure that is in part an ' +
        'estimate (docs/data/sources.md); null when the source does not say',
    ),
    ...provenance,
  ],
};

export const PRICES_SCHEMA: TableSchema = {
  table: 'prices',
  partitions: [{ name: 'market', type: 'VARCHAR' }],
  columns: [
    c('ticker', 'VARCHAR', 'ticker symbol'),
    c('date', 'DATE', 'trading date (the sample has month-end closes)'),
    c('close', 'DOUBLE', 'closing price in the listing currency'),
    c('currency', 'VARCHAR', 'ISO 4217 currency of the price'),
    c(
      'split_adjusted_through',
      'DATE',
      'the close is adjusted for every stock split up to this date (Yahoo-style files); null = the price as traded that day',
    ),
    ...provenance,
  ],
};

export const EXPOSURES_SCHEMA: TableSchema = {
  table: 'exposures',
  partitions: [{ name: 'market', type: 'VARCHAR' }],
  columns: [
    c('ticker', 'VARCHAR', 'ticker symbol'),
    c('as_of', 'DATE', 'date the exposure became known (report date)'),
    c(
      'activity',
      'VARCHAR',
      "business-activity code (docs/data/activities.md); 'none': reviewed, no screened activity; 'revenue_accounted': a filing's revenue accounting",
    ),
    c(
      'revenue_share',
      'DOUBLE',
      "share of total revenue from the activity, 0..1 ('revenue_accounted': the share the filing's members account for)",
    ),
    c('source_ref', 'VARCHAR', 'reference of the record in its source'),
    c(
      'evidence',
      'VARCHAR',
      "what the figure rests on: 'reported' (vendor or sample figure; null reads as this), 'filing_concept', 'retired_concept', " +
        "'filing_dimension', 'curated' (docs/data/activities.md)",
    ),
    c(
      'involvement',
      'VARCHAR',
      "how the company takes part: 'producer', 'distributor', 'retailer', 'ancillary'; null = not reported (docs/data/activities.md)",
    ),
    ...provenance,
  ],
};

export const SPLITS_SCHEMA: TableSchema = {
  table: 'splits',
  partitions: [{ name: 'market', type: 'VARCHAR' }],
  columns: [
    c('ticker', 'VARCHAR', 'ticker symbol'),
    c('ex_date', 'DATE', 'first trading day on the new share basis'),
    c('ratio', 'DOUBLE', 'new shares per old share (4 for a 4-for-1 split, 0.1 for a 1-for-10 reverse split)'),
    c('source_ref', 'VARCHAR', 'where the split is recorded (filing concept and accession, or the vendor reference)'),
    ...provenance,
  ],
};

export const FUND_HOLDINGS_SCHEMA: TableSchema = {
  table: 'fund_holdings',
  partitions: [{ name: 'fund_market', type: 'VARCHAR' }],
  columns: [
    c('fund_ticker', 'VARCHAR', 'ticker of the fund'),
    c('as_of', 'DATE', 'date of the holdings report'),
    c('market', 'VARCHAR', 'market key of the held security'),
    c('ticker', 'VARCHAR', 'ticker of the held security'),
    c('weight', 'DOUBLE', "share of the fund, 0..1 (a fund's weights sum to at most 1)"),
    ...provenance,
  ],
};

/** The 10 framework ids, in the order their status columns appear in snapshots. */
export const SNAPSHOT_FRAMEWORKS = FRAMEWORK_IDS;

export { SNAPSHOT_RATIOS };

export const SNAPSHOTS_SCHEMA: TableSchema = {
  table: 'snapshots',
  partitions: [
    { name: 'market', type: 'VARCHAR' },
    { name: 'year', type: 'INTEGER' },
  ],
  columns: [
    c('ticker', 'VARCHAR', 'ticker symbol'),
    c('snapshot_date', 'DATE', 'the day the verdict is for'),
    c('screened_at', 'TIMESTAMP', 'when the screen ran (UTC, no zone); newest wins within a day'),
    c('source', 'VARCHAR', "'nightly', 'backfill', 'refresh', …"),
    c('run_id', 'VARCHAR', 'pipeline run that wrote the snapshot'),
    c('era', 'VARCHAR', "'legacy' before 2026-07-04, 'current' from then"),
    c('engine_version', 'VARCHAR', 'screening-engine version'),
    ...SNAPSHOT_FRAMEWORKS.map((id) =>
      c(`${id}_status`, 'VARCHAR', `${id} verdict: compliant, non_compliant, questionable or insufficient_data`),
    ),
    ...SNAPSHOT_RATIOS.map((r) =>
      c(r, 'DOUBLE', r.includes('market_cap') && !r.includes('_to_') ? 'amount in listing currency' : 'ratio, 0..1 (may exceed 1)'),
    ),
    c('filing_ref', 'VARCHAR', 'source_ref of the filing behind the ratios'),
    c('period_end', 'DATE', "that filing's period end"),
    c('price_date', 'DATE', 'date of the close behind the spot market cap'),
    c(
      'result_json',
      'VARCHAR',
      "the engine's full result, reasons included (JSON); methodology texts stored as references to methodology_texts (the snapshots view expands them)",
    ),
    ...provenance,
  ],
};

/** Each methodology text once per (engine version, methodology version, reason code, field): what snapshots' `result_json` references. */
export const METHODOLOGY_TEXTS_SCHEMA: TableSchema = {
  table: 'methodology_texts',
  partitions: [{ name: 'engine_version', type: 'VARCHAR' }],
  columns: [
    c('methodology_version', 'VARCHAR', "the framework's methodology version; '' for data-quality notes and the madhhab note"),
    c('code', 'VARCHAR', "reason code; '<framework>.purification' for a purification formula, 'madhhab_views' for the madhhab note"),
    c('field', 'VARCHAR', "'message', 'source', 'formula' or 'note'"),
    c('text_id', 'VARCHAR', 'first 12 hex digits of the SHA-256 of the text: the reference stored in result_json'),
    c('text', 'VARCHAR', 'the text'),
  ],
};

export const TABLE_SCHEMAS: Readonly<Record<LakeTable, TableSchema>> = {
  listings: LISTINGS_SCHEMA,
  fundamentals: FUNDAMENTALS_SCHEMA,
  prices: PRICES_SCHEMA,
  exposures: EXPOSURES_SCHEMA,
  fund_holdings: FUND_HOLDINGS_SCHEMA,
  splits: SPLITS_SCHEMA,
  snapshots: SNAPSHOTS_SCHEMA,
  methodology_texts: METHODOLOGY_TEXTS_SCHEMA,
};

/** Partition value of the zero-row seed file every table carries so an empty table is queryable. */
export const SEED_PARTITION = '_none';
