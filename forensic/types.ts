/**
 * The forensic scores' input and output contract. Pure data: the warehouse builds `Period`s
 * from the lake, tests build them by hand. Amounts are in the listing's currency; flows
 * (revenue, income, cash flow, depreciation, SG&A) are trailing twelve months at `periodEnd`;
 * dates are `YYYY-MM-DD`.
 */

/** Figures a filing may carry that the scores read (the lake's column names). */
export const FIGURE_NAMES = [
  'total_assets',
  'total_liabilities',
  'total_equity',
  'current_assets',
  'current_liabilities',
  'cash_and_equivalents',
  'accounts_receivable',
  'ppe_net',
  'long_term_investments',
  'long_term_debt',
  'total_debt',
  'retained_earnings',
  'total_revenue',
  'gross_profit',
  'sga_expense',
  'depreciation',
  'ebit',
  'net_income',
  'operating_cash_flow',
  'shares_outstanding',
  'interest_bearing_investments',
  'interest_income',
] as const;

export type FigureName = (typeof FIGURE_NAMES)[number];

/** One period's figures, from the one filing that reported them (the latest known for that period end). */
export interface Period {
  periodEnd: string;
  filedOn: string;
  sourceRef: string;
  currency: string;
  figures: Partial<Record<FigureName, number | null>>;
  /** Latest close on or before the period end (listing currency), null when none is known. */
  close: number | null;
  /** Date of that close. */
  closeDate: string | null;
}

/**
 * A company's periods for scoring: `current` is the latest period, `prior` the one a year
 * before it, `prior2` the one before that (Piotroski needs beginning-of-year assets of the
 * prior year). Any of them may be missing.
 */
export interface PeriodSet {
  current: Period | null;
  prior: Period | null;
  prior2: Period | null;
}

/** Which of the three periods a figure comes from. */
export type PeriodRole = 'current' | 'prior' | 'prior2';

/** A figure a score used, with the filing it came from. */
export interface FigureUsed {
  field: FigureName | 'market_value_of_equity';
  period: PeriodRole;
  period_end: string;
  value: number;
  source_ref: string;
  filed_on: string;
}

/**
 * A figure a score needed and did not find; `period_end` is null when the whole period is
 * missing; `ratio` marks a ratio left undefined by a zero denominator.
 */
export interface MissingFigure {
  field: FigureName | 'market_value_of_equity' | 'period' | 'ratio';
  period: PeriodRole;
  period_end: string | null;
  reason: string;
}

/** A threshold of a published method, shown with its operator exactly as the method states it. */
export interface Threshold {
  /** e.g. `m_score > -1.78`: `value operator threshold` means `reading`. */
  operator: '<' | '<=' | '>' | '>=';
  value: number;
  reading: string;
}

/** The method a score follows, with its source. */
export interface MethodRef {
  name: string;
  /** The formula with its published coefficients. */
  formula: string;
  source: string;
}

interface ScoreBase {
  method: MethodRef;
  /** Period ends the score read, newest first. */
  periods: string[];
  inputs: FigureUsed[];
  thresholds: Threshold[];
  notes: string[];
}

/** A score that could be computed. `value` is rounded for display; readings compare the unrounded value. */
export interface ScoreOk<C> extends ScoreBase {
  status: 'ok';
  value: number;
  reading: string;
  components: C;
}

/** A score whose inputs are missing: `missing` names each figure and period; computable components are still shown. */
export interface ScoreInsufficient<C> extends ScoreBase {
  status: 'insufficient_data';
  value: null;
  reading: null;
  missing: MissingFigure[];
  components: Partial<C>;
}

/** A score whose method does not apply to the company (e.g. Altman for a bank). */
export interface ScoreNotApplicable extends ScoreBase {
  status: 'not_applicable';
  value: null;
  reading: null;
  reason: string;
}

export type ScoreResult<C> = ScoreOk<C> | ScoreInsufficient<C> | ScoreNotApplicable;

/** What the scores know about the company beyond its filings. */
export interface CompanyProfile {
  /** 4-digit SIC code, null when unknown. */
  sic: string | null;
}
