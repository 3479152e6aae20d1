import { DURATION_CONCEPTS, INSTANT_CONCEPTS } from './edgar-concepts.ts';
import type { CompanyFacts } from './edgar-formats.ts';
import { describeFigure, instantFigure, type Filing } from './figure-facts.ts';
import { ttmFigure } from './figure-ttm.ts';
import { periodicFilings } from './figure-periods.ts';
import {
  cashFigure,
  debtFigure,
  dividendsFigure,
  firstAlternative,
  interestIncomeFigure,
  investmentsFigure,
  receivablesFigure,
  revenueFigure,
  sharesFigure,
  type FigureContext,
  type Sourced,
} from './figure-rules.ts';

/** The screening columns whose source is recorded in `figure_sources`. */
const SCREENING_FIGURES = {
  total_debt: debtFigure,
  cash_and_equivalents: cashFigure,
  interest_bearing_investments: investmentsFigure,
  accounts_receivable: receivablesFigure,
  total_revenue: revenueFigure,
  interest_income: interestIncomeFigure,
  dividends_per_share: dividendsFigure,
  shares_outstanding: sharesFigure,
} as const satisfies Record<string, (ctx: FigureContext) => Sourced>;

type ScreeningColumn = keyof typeof SCREENING_FIGURES;
type ForensicColumn = Exclude<keyof typeof INSTANT_CONCEPTS, 'total_assets'> | keyof typeof DURATION_CONCEPTS;

/**
 * `figure_sources` key of a proven lower bound of an unknown figure (a number, not a text):
 * `interest_income_at_least` (docs/data/sources.md, "edgar").
 */
export const AT_LEAST_SUFFIX = '_at_least';

/**
 * `figure_sources` key (value `true`) of a figure that is in part an estimate by a documented
 * rule, `interest_income_estimated` (docs/data/sources.md, "edgar"): the screen treats it as doubt.
 */
export const ESTIMATED_SUFFIX = '_estimated';

/** One fundamentals row from one periodic filing: amounts in the filing's currency, TTM flows, dates `YYYY-MM-DD`. */
export type EdgarFundamentals = {
  ticker: string;
  period_end: string;
  filed_on: string;
  source_ref: string;
  currency: string;
  total_assets: number | null;
  /**
   * JSON object: column → `concept(s) @ accession(s) (how derived)`, or why the figure is null; `<column>_at_least` → a
   * lower bound of the figure (a number); `<column>_estimated` → `true` when the figure is in part an estimate.
   */
  figure_sources: string;
} & { [K in ScreeningColumn | ForensicColumn]: number | null };

const NOT_MAPPED = 'not mapped: the filer reports in IFRS (ifrs-full facts, no us-gaap), which faithscreen does not map to figures';

/** Rows of an IFRS filer: its filings, every figure null, each source saying why (never an invented number). */
function ifrsRows(facts: CompanyFacts, ticker: string): EdgarFundamentals[] {
  const assets = Object.entries(facts.facts['ifrs-full']?.Assets?.units ?? {})[0];
  const currency = assets?.[0] && /^[A-Z]{3}$/.test(assets[0]) ? assets[0] : 'USD';
  const columns = ['total_assets', ...Object.keys(SCREENING_FIGURES), ...Object.keys(INSTANT_CONCEPTS), ...Object.keys(DURATION_CONCEPTS)];
  const sources = JSON.stringify(
    Object.fromEntries(
      Object.keys(SCREENING_FIGURES)
        .concat('total_assets')
        .map((c) => [c, NOT_MAPPED]),
    ),
  );
  return periodicFilings(facts, 'ifrs-full').map((filing) => ({
    ...(Object.fromEntries(columns.map((c) => [c, null])) as Record<ScreeningColumn | ForensicColumn | 'total_assets', null>),
    ticker,
    period_end: filing.periodEnd,
    filed_on: filing.filed,
    source_ref: `edgar:${filing.accn}`,
    currency,
    figure_sources: sources,
  }));
}

function rowOf(facts: CompanyFacts, ticker: string, filing: Filing): EdgarFundamentals {
  const ctx: FigureContext = { facts, filing };
  const assets = instantFigure(facts, 'Assets', filing);
  const sources: Record<string, string | number | boolean> = {
    total_assets: assets ? describeFigure(assets) : 'not reported: no us-gaap:Assets at the period end',
  };
  const row = {
    ticker,
    period_end: filing.periodEnd,
    filed_on: filing.filed,
    source_ref: `edgar:${filing.accn}`,
    currency: 'USD',
    total_assets: assets?.value ?? null,
  } as EdgarFundamentals;
  for (const [column, rule] of Object.entries(SCREENING_FIGURES) as Array<[ScreeningColumn, (c: FigureContext) => Sourced]>) {
    const { figure, missing, atLeast } = rule(ctx);
    row[column] = figure?.value ?? null;
    sources[column] = figure ? describeFigure(figure) : `not reported: ${missing ?? 'no concept'}`;
    if (atLeast) sources[`${column}${AT_LEAST_SUFFIX}`] = atLeast.value;
    if (figure?.estimate) sources[`${column}${ESTIMATED_SUFFIX}`] = true;
  }
  for (const [column, alternatives] of Object.entries(INSTANT_CONCEPTS)) {
    if (column === 'total_assets') continue;
    const figure = firstAlternative(alternatives, (c) => instantFigure(facts, c, filing));
    row[column as ForensicColumn] = figure?.value ?? null;
    // Zakat cites these balance-sheet lines by concept and accession, as the screen cites its own.
    sources[column] = figure
      ? describeFigure(figure)
      : `not reported: no ${alternatives.map((a) => a.map((c) => `us-gaap:${c}`).join(' + ')).join(' or ')} at the period end`;
  }
  for (const [column, alternatives] of Object.entries(DURATION_CONCEPTS)) {
    row[column as ForensicColumn] = firstAlternative(alternatives, (c) => ttmFigure(facts, c, filing))?.value ?? null;
  }
  row.figure_sources = JSON.stringify(sources);
  return row;
}

/**
 * Fundamentals rows (one per periodic filing date) from an XBRL companyfacts file, with the
 * concept and accession behind every screening figure in `figure_sources`
 * (docs/data/sources.md, "edgar"). `source_ref` is `edgar:<accession>`. A filer with only
 * IFRS facts gets rows whose figures are all null and say so.
 */
export function fundamentalsFromCompanyFacts(facts: CompanyFacts, ticker: string): EdgarFundamentals[] {
  const usGaap = facts.facts['us-gaap'];
  if ((!usGaap || Object.keys(usGaap).length === 0) && facts.facts['ifrs-full']) return ifrsRows(facts, ticker);
  return periodicFilings(facts).map((filing) => rowOf(facts, ticker, filing));
}
