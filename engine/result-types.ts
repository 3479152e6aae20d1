/**
 * The engine's output: plain JSON-serialisable data (stored in Parquet snapshots, served by the
 * API). Keys are snake_case because this is the API's JSON. Ratios are in 0..1 (a ratio can
 * exceed 1, e.g. debt of twice the market cap); amounts are in the filing's currency.
 */
import type { FrameworkId, ShariahFrameworkId } from './frameworks.ts';
import type { Era } from './version.ts';

export type VerdictStatus = 'compliant' | 'non_compliant' | 'questionable' | 'insufficient_data';

/** Outcome of a single check. `info` notes context and never changes a verdict. */
export type CheckResult = 'pass' | 'fail' | 'questionable' | 'insufficient_data' | 'info';

/** The passing condition: the check passes when `value <operator> threshold`. */
export type ComparisonOperator = '<' | '<=' | '>' | '>=';

/**
 * Why a check is `questionable` rather than decided: a breach resting on a proxy for the figure
 * the methodology names, or on an estimated revenue share; activity evidence that leaves a
 * screened activity in doubt; a rule whose text does not decide the case; sources that
 * conflict; a real disagreement between authorities.
 */
export const DOUBTS = [
  'proxy',
  'estimate',
  'ambiguous_evidence',
  'ambiguous_rule',
  'conflicting_sources',
  'scholarly_disagreement',
] as const;

export type Doubt = (typeof DOUBTS)[number];

export interface Reason {
  /** Stable machine code, `<framework>.<check>[.<detail>]`. */
  code: string;
  result: CheckResult;
  message: string;
  /** Ratio or exposure measured, e.g. `debt_to_market_cap_24m` or `activity.alcohol`. */
  metric?: string;
  value?: number;
  threshold?: number;
  operator?: ComparisonOperator;
  /** Outcome of `value <operator> threshold`, compared exactly (docs/frameworks/README.md, "Exact comparison"). */
  within_limit?: boolean;
  /** Signed distance from the value to the limit, in the value's units: positive inside the limit, negative beyond it. */
  margin?: number;
  /**
   * The value lies within the nearness distance of the limit (1 point for balance-sheet ratios, 5% of the limit for revenue
   * shares). Data only: it never sets the result.
   */
  near_limit?: boolean;
  /** On a `questionable` result: the kind of genuine doubt behind it (docs/frameworks/README.md, "Statuses"). */
  doubt?: Doubt;
  /** Filing (or exposure source) the value came from. */
  filing_ref?: string;
  /** Published source of the rule (document, edition, section). */
  source?: string;
  /**
   * On business-activity reasons: what the absence of a screened activity rests on —
   * `reviewed`, `vendor`, `filing` (the filing's revenue members account for all of revenue),
   * `industry_code`, or `none` (docs/frameworks/README.md).
   */
  evidence_level?: 'reviewed' | 'vendor' | 'filing' | 'industry_code' | 'none';
  /** On ratio checks: the filing figures behind the ratio and where each came from (when the data source records it). */
  inputs?: readonly ReasonInput[];
}

/** One figure a ratio check used: its lake column name, value (null = not reported) and source. */
export interface ReasonInput {
  name: string;
  value: number | null;
  /** Concept(s) and accession, e.g. `us-gaap:LongTermDebtNoncurrent @ 0000320193-24-000006`, or why it is missing. */
  source?: string;
}

export type PurificationMethod = 'dividend_ratio' | 'impermissible_income_per_share';

export interface FrameworkPurification {
  method: PurificationMethod;
  /** Amount to give away per share held, in `currency`; null when an input is missing. */
  per_share: number | null;
  /** Non-permissible income ÷ total income (0..1), interest income included. */
  non_permissible_income_ratio: number | null;
  currency: string | null;
  formula: string;
  /**
   * Present when a figure behind the amount stands in for the one the formula names
   * (docs/frameworks/README.md, "Proxies and estimates"): the amount is an estimate that may be
   * too low as well as too high.
   */
  proxy?: string;
}

export interface ConsensusComponent {
  /** A Shariah framework id (before engine 3.0.0 also `shariah_signal` and the other traditions). */
  component: string;
  weight: number;
  status: VerdictStatus;
  /** 1 compliant, 0.5 questionable, 0 non_compliant; null when insufficient_data. */
  value: number | null;
}

/** A tradition shown beside the Shariah consensus with its own verdict, not counted in it. */
export interface ConsensusTradition {
  framework: FrameworkId;
  status: VerdictStatus;
}

export interface FrameworkResult {
  id: FrameworkId;
  status: VerdictStatus;
  /** 0..100; see docs/frameworks/README.md (headroom for Shariah, blend for consensus). */
  score: number | null;
  methodology_version: string;
  methodology_effective_from: string;
  reasons: Reason[];
  purification: FrameworkPurification | null;
  /** Only on service_consensus. */
  components?: ConsensusComponent[];
  /** Only on service_consensus: share of the total weight that had a decisive status (0..1). */
  coverage?: number;
  /** Only on service_consensus: the other traditions' verdicts, shown beside the Shariah consensus. */
  traditions?: ConsensusTradition[];
}

export interface Ratios {
  debt_to_market_cap_spot: number | null;
  debt_to_market_cap_24m: number | null;
  debt_to_market_cap_36m: number | null;
  cash_and_securities_to_market_cap_spot: number | null;
  cash_and_securities_to_market_cap_24m: number | null;
  cash_and_securities_to_market_cap_36m: number | null;
  receivables_to_market_cap_24m: number | null;
  receivables_to_market_cap_36m: number | null;
  debt_to_assets: number | null;
  cash_and_securities_to_assets: number | null;
  receivables_to_assets: number | null;
  receivables_and_cash_to_assets: number | null;
  interest_income_to_revenue: number | null;
}

export type RatioKey = keyof Ratios;

export interface Purification {
  /** The larger of the two methods that could be computed (conservative); null if neither. */
  per_share: number | null;
  method: PurificationMethod | null;
  dividend_ratio_per_share: number | null;
  impermissible_income_per_share: number | null;
  non_permissible_income_ratio: number | null;
  currency: string | null;
  /** As on a framework's purification: why the amounts are estimates, when they are. */
  proxy?: string;
}

export interface MadhhabDisagreement {
  /** The screen concept: debt, cash, receivables, liquidity, income, business. */
  concept: string;
  passing: ShariahFrameworkId[];
  questionable: ShariahFrameworkId[];
  failing: ShariahFrameworkId[];
  /** Frameworks that applied no rule for this concept, or lacked the data. */
  not_assessed: ShariahFrameworkId[];
}

export interface MadhhabViews {
  /** All five must be compliant (the most cautious reading). */
  strict: VerdictStatus;
  /** The status at least three of the five share; `questionable` when no three agree. */
  majority: VerdictStatus;
  /** The most favourable status among the five. */
  lenient: VerdictStatus;
  agreement: 'unanimous' | 'majority' | 'split';
  counts: Record<VerdictStatus, number>;
  by_framework: Record<ShariahFrameworkId, VerdictStatus>;
  disagreements: MadhhabDisagreement[];
  note: string;
}

export interface FilingRef {
  source_ref: string;
  period_end: string;
  filed_on: string;
}

export interface Provenance {
  filing: FilingRef | null;
  price_date: string | null;
  market_cap_months_24: number;
  market_cap_months_36: number;
  /** `involvement` null = not reported (docs/data/activities.md, "Involvement"). */
  exposures: { activity: string; as_of: string; source_ref: string; involvement: string | null }[];
  data_source: string;
  synthetic: boolean;
}

export interface ScreeningResult {
  engine_version: string;
  engine_revision_date: string;
  era: Era;
  screening_date: string;
  market: string;
  ticker: string;
  company_name: string;
  frameworks: Partial<Record<FrameworkId, FrameworkResult>>;
  frameworks_returned: FrameworkId[];
  ratios: Ratios;
  market_cap: { spot: number | null; avg_24m: number | null; avg_36m: number | null; currency: string };
  purification: Purification | null;
  purification_per_share: number | null;
  madhhab_views?: MadhhabViews;
  /** Input problems that limited the screen (stale filing, currency mismatch, ...). */
  data_quality: Reason[];
  provenance: Provenance;
}
