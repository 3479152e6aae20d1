/**
 * Point-in-time lookups of single us-gaap facts for one periodic filing, each returned with
 * the concept and accession(s) it came from (docs/data/sources.md, "edgar").
 */
import type { CompanyFacts, Fact } from './edgar-formats.ts';

/** One periodic filing: its accession, the day it became public and its balance-sheet date. */
export interface Filing {
  accn: string;
  filed: string;
  periodEnd: string;
}

/** A figure and where it came from: concepts (`us-gaap:X`), accessions, and a note on how it was derived. */
export interface Figure {
  value: number;
  concepts: string[];
  accns: string[];
  note?: string;
}

const DAY = 86_400_000;
export const days = (a: string, b: string): number => (Date.parse(b) - Date.parse(a)) / DAY;
export const near = (a: string, b: string, tolerance: number): boolean => Math.abs(days(a, b)) <= tolerance;
export const shiftDays = (date: string, n: number): string => new Date(Date.parse(date) + n * DAY).toISOString().slice(0, 10);
const minusYear = (date: string): string => `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;
const length = (f: Fact): number => days(f.start!, f.end) + 1;
const isAnnual = (f: Fact): boolean => length(f) >= 350 && length(f) <= 380;

/** Facts of one concept in its natural unit (USD, shares, USD per share), any taxonomy. */
export function factsOf(facts: CompanyFacts, taxonomy: string, concept: string): Fact[] {
  const units = facts.facts[taxonomy]?.[concept]?.units;
  if (!units) return [];
  return units.USD ?? units.shares ?? units['USD/shares'] ?? Object.values(units)[0] ?? [];
}

/**
 * Facts known on the filing's date, the filing's own first, then the latest filed: a later
 * restatement never reaches an earlier row, and an amendment replaces what it amends.
 */
export function known(list: readonly Fact[], filing: Filing): Fact[] {
  return list
    .filter((f) => f.filed <= filing.filed)
    .sort(
      (a, b) =>
        Number(b.accn === filing.accn) - Number(a.accn === filing.accn) || b.filed.localeCompare(a.filed) || b.accn.localeCompare(a.accn),
    );
}

const merge = (parts: readonly Fact[]): string[] => [...new Set(parts.map((f) => f.accn))];

/** Balance-sheet value of a us-gaap concept at the filing's period end (±3 days), or null. */
export function instantFigure(facts: CompanyFacts, concept: string, filing: Filing): Figure | null {
  const fact = known(factsOf(facts, 'us-gaap', concept), filing).find((f) => f.start === undefined && near(f.end, filing.periodEnd, 3));
  return fact ? { value: fact.val, concepts: [`us-gaap:${concept}`], accns: [fact.accn] } : null;
}

/** Trailing twelve months ending at `end` from durations known by then, or null. */
function ttmAt(durations: readonly Fact[], end: string, concept: string): Figure | null {
  const annualAt = (at: string): Fact | undefined => durations.find((f) => near(f.end, at, 5) && isAnnual(f));
  const annual = annualAt(end);
  const name = `us-gaap:${concept}`;
  if (annual) return { value: annual.val, concepts: [name], accns: [annual.accn], note: `fiscal year ${annual.start}..${annual.end}` };
  const ytd = durations.filter((f) => near(f.end, end, 5) && length(f) < 350).sort((a, b) => length(b) - length(a))[0];
  if (!ytd) return null;
  const lastYear = annualAt(shiftDays(ytd.start!, -1));
  const priorYtd = durations.find((f) => near(f.end, minusYear(ytd.end), 7) && near(f.start!, minusYear(ytd.start!), 7));
  if (!lastYear || !priorYtd) return null;
  return {
    value: lastYear.val + ytd.val - priorYtd.val,
    concepts: [name],
    accns: merge([lastYear, ytd, priorYtd]),
    note: `TTM = fiscal year to ${lastYear.end} + ${ytd.start}..${ytd.end} − ${priorYtd.start}..${priorYtd.end}`,
  };
}

/**
 * Trailing-twelve-month value of a us-gaap flow at the filing's period end: the fiscal year
 * itself (a 10-K), or last fiscal year + this year-to-date − last year's year-to-date (a 10-Q;
 * the fourth quarter is the year minus nine months, implicitly). With `recentMonths`, when that
 * cannot be derived, the latest twelve months ending at most that long before (noted).
 */
export function ttmFigure(facts: CompanyFacts, concept: string, filing: Filing, recentMonths = 0): Figure | null {
  const durations = known(factsOf(facts, 'us-gaap', concept), filing).filter(
    (f) => f.start !== undefined && f.end <= shiftDays(filing.periodEnd, 5),
  );
  const exact = ttmAt(durations, filing.periodEnd, concept);
  if (exact || recentMonths === 0) return exact;
  const ends = [...new Set(durations.map((f) => f.end))]
    .filter((e) => days(e, filing.periodEnd) <= recentMonths * 31)
    .sort()
    .reverse();
  for (const end of ends) {
    const recent = ttmAt(durations, end, concept);
    if (recent) return { ...recent, note: `${recent.note}; the latest twelve months reported, ${end} (not ${filing.periodEnd})` };
  }
  return null;
}

/** The longest year-to-date value (under a year) of a us-gaap flow ending at the filing's period end, or null. */
export function yearToDateFigure(facts: CompanyFacts, concept: string, filing: Filing): Figure | null {
  const ytd = known(factsOf(facts, 'us-gaap', concept), filing)
    .filter((f) => f.start !== undefined && near(f.end, filing.periodEnd, 5) && length(f) < 350)
    .sort((a, b) => length(b) - length(a))[0];
  return ytd
    ? { value: ytd.val, concepts: [`us-gaap:${concept}`], accns: [ytd.accn], note: `year to date ${ytd.start}..${ytd.end}` }
    : null;
}

/** Sum of the figures present (null when none is), with their concepts and accessions. */
export function sumFigures(parts: ReadonlyArray<Figure | null>): Figure | null {
  const present = parts.filter((p): p is Figure => p !== null);
  if (present.length === 0) return null;
  const notes = [...new Set(present.map((p) => p.note).filter((n): n is string => n !== undefined))];
  return {
    value: present.reduce((sum, p) => sum + p.value, 0),
    concepts: present.flatMap((p) => p.concepts),
    accns: [...new Set(present.flatMap((p) => p.accns))],
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}

/** The `figure_sources` text of a figure: `us-gaap:A + us-gaap:B @ accession[, accession] (note)`. */
export function describeFigure(figure: Figure): string {
  const text = `${figure.concepts.length > 0 ? figure.concepts.join(' + ') : 'no concept'} @ ${figure.accns.join(', ')}`;
  return figure.note ? `${text} (${figure.note})` : text;
}
