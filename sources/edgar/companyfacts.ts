import type { CompanyFacts, Fact } from './edgar-formats.ts';
import { DURATION_CONCEPTS, INSTANT_CONCEPTS, LONG_TERM_DEBT, PERIODIC_FORMS, SHARES_CONCEPTS, SHORT_TERM_DEBT } from './edgar-concepts.ts';

/** One fundamentals row from one periodic filing: amounts in USD, TTM flows, dates `YYYY-MM-DD`. */
export type EdgarFundamentals = {
  ticker: string;
  period_end: string;
  filed_on: string;
  source_ref: string;
  currency: string;
  shares_outstanding: number | null;
  total_debt: number | null;
} & { [K in keyof typeof INSTANT_CONCEPTS | keyof typeof DURATION_CONCEPTS]: number | null };

const DAY = 86_400_000;
const days = (a: string, b: string): number => (Date.parse(b) - Date.parse(a)) / DAY;
const near = (a: string, b: string, tolerance: number): boolean => Math.abs(days(a, b)) <= tolerance;
const shiftDays = (date: string, n: number): string => new Date(Date.parse(date) + n * DAY).toISOString().slice(0, 10);
const minusYear = (date: string): string => `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;

interface Filing {
  accn: string;
  filed: string;
  periodEnd: string;
}

function factsOf(facts: CompanyFacts, taxonomy: string, concept: string): Fact[] {
  const units = facts.facts[taxonomy]?.[concept]?.units;
  if (!units) return [];
  return units.USD ?? units.shares ?? units['USD/shares'] ?? Object.values(units)[0] ?? [];
}

/** Facts known when the filing was made, preferring the filing's own figures. */
function known(list: readonly Fact[], filing: Filing): Fact[] {
  return list.filter((f) => f.filed <= filing.filed).sort((a, b) => Number(b.accn === filing.accn) - Number(a.accn === filing.accn) || b.filed.localeCompare(a.filed));
}

function instant(facts: CompanyFacts, concept: string, filing: Filing): number | null {
  return known(factsOf(facts, 'us-gaap', concept), filing).find((f) => f.start === undefined && near(f.end, filing.periodEnd, 3))?.val ?? null;
}

/** First alternative (a list of concepts summed) whose members the filing reports. */
function firstReported(facts: CompanyFacts, alternatives: ReadonlyArray<readonly string[]>, filing: Filing, value: (concept: string) => number | null): number | null {
  for (const members of alternatives) {
    const values = members.map(value);
    if (values[0] !== null && values[0] !== undefined) return values.reduce<number>((sum, v) => sum + (v ?? 0), 0);
  }
  return null;
}

/** Trailing twelve months at the period end: the fiscal year itself, or last fiscal year + this YTD − last year's YTD. */
function ttm(facts: CompanyFacts, concept: string, filing: Filing): number | null {
  const durations = known(factsOf(facts, 'us-gaap', concept), filing).filter((f) => f.start !== undefined);
  const length = (f: Fact): number => days(f.start!, f.end) + 1;
  const annualAt = (end: string): Fact | undefined => durations.find((f) => near(f.end, end, 5) && length(f) >= 350 && length(f) <= 380);
  const annual = annualAt(filing.periodEnd);
  if (annual) return annual.val;
  const ytd = durations.filter((f) => near(f.end, filing.periodEnd, 5) && length(f) < 350).sort((a, b) => length(b) - length(a))[0];
  if (!ytd) return null;
  const lastYear = annualAt(shiftDays(ytd.start!, -1));
  const priorYtd = durations.find((f) => near(f.end, minusYear(ytd.end), 7) && near(f.start!, minusYear(ytd.start!), 7));
  if (!lastYear || !priorYtd) return null;
  return lastYear.val + ytd.val - priorYtd.val;
}

function sharesAt(facts: CompanyFacts, filing: Filing): number | null {
  for (const [taxonomy, concept] of SHARES_CONCEPTS) {
    const fact = known(factsOf(facts, taxonomy, concept), filing).find((f) => days(filing.periodEnd, f.end) >= -3);
    if (fact) return fact.val;
  }
  return null;
}

/** The periodic filings in a companyfacts file: each accession's balance-sheet date is its latest `Assets` end. */
function filingsOf(facts: CompanyFacts): Filing[] {
  const byAccn = new Map<string, Filing>();
  for (const fact of factsOf(facts, 'us-gaap', 'Assets')) {
    if (!PERIODIC_FORMS.has(fact.form)) continue;
    const seen = byAccn.get(fact.accn);
    if (!seen || fact.end > seen.periodEnd) byAccn.set(fact.accn, { accn: fact.accn, filed: fact.filed, periodEnd: fact.end });
  }
  return [...byAccn.values()].sort((a, b) => a.filed.localeCompare(b.filed));
}

/**
 * Fundamentals rows (one per 10-K/10-Q) from an XBRL companyfacts file, mapped to screening
 * inputs with the concept fallbacks of `edgar-concepts.ts`. `source_ref` is `edgar:<accession>`.
 */
export function fundamentalsFromCompanyFacts(facts: CompanyFacts, ticker: string): EdgarFundamentals[] {
  return filingsOf(facts).map((filing) => {
    const instantOf = (concept: string): number | null => instant(facts, concept, filing);
    const ttmOf = (concept: string): number | null => ttm(facts, concept, filing);
    const longTerm = firstReported(facts, LONG_TERM_DEBT, filing, instantOf);
    const shortTerm = firstReported(facts, SHORT_TERM_DEBT, filing, instantOf);
    const row = {
      ticker,
      period_end: filing.periodEnd,
      filed_on: filing.filed,
      source_ref: `edgar:${filing.accn}`,
      currency: 'USD',
      shares_outstanding: sharesAt(facts, filing),
      total_debt: longTerm === null && shortTerm === null ? null : (longTerm ?? 0) + (shortTerm ?? 0),
    } as EdgarFundamentals;
    for (const [column, alternatives] of Object.entries(INSTANT_CONCEPTS)) {
      row[column as keyof typeof INSTANT_CONCEPTS] = firstReported(facts, alternatives, filing, instantOf);
    }
    for (const [column, alternatives] of Object.entries(DURATION_CONCEPTS)) {
      row[column as keyof typeof DURATION_CONCEPTS] = firstReported(facts, alternatives, filing, ttmOf);
    }
    return row;
  });
}
