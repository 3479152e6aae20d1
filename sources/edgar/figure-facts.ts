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
  /**
   * Set when part of the value is estimated (docs/data/sources.md, "edgar"): the documented
   * rule applied, and the sum of the parts that were reported.
   */
  estimate?: { rule: string; known: number };
}

const DAY = 86_400_000;
export const days = (a: string, b: string): number => (Date.parse(b) - Date.parse(a)) / DAY;
export const near = (a: string, b: string, tolerance: number): boolean => Math.abs(days(a, b)) <= tolerance;
export const shiftDays = (date: string, n: number): string => new Date(Date.parse(date) + n * DAY).toISOString().slice(0, 10);
const length = (f: Fact): number => days(f.start!, f.end) + 1;

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
export function known(list: readonly Fact[], filing: Filing): readonly Fact[] {
  const hit = knownCache.get(list);
  if (hit?.filing === filing) return hit.facts;
  const facts = list
    .filter((f) => f.filed <= filing.filed)
    .sort(
      (a, b) =>
        Number(b.accn === filing.accn) - Number(a.accn === filing.accn) || b.filed.localeCompare(a.filed) || b.accn.localeCompare(a.accn),
    );
  knownCache.set(list, { filing, facts });
  return facts;
}

/** A row reads each concept's facts several times for one filing: the last sorted list per fact list. */
const knownCache = new WeakMap<readonly Fact[], { filing: Filing; facts: readonly Fact[] }>();

/** Balance-sheet value of a us-gaap concept at the filing's period end (±3 days), or null. */
export function instantFigure(facts: CompanyFacts, concept: string, filing: Filing): Figure | null {
  const fact = known(factsOf(facts, 'us-gaap', concept), filing).find((f) => f.start === undefined && near(f.end, filing.periodEnd, 3));
  return fact ? { value: fact.val, concepts: [`us-gaap:${concept}`], accns: [fact.accn] } : null;
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
  const estimated = present.filter((p) => p.estimate !== undefined);
  const estimate =
    estimated.length === 0
      ? undefined
      : {
          rule: estimated.map((p) => p.estimate!.rule).join('; '),
          known: present.reduce((sum, p) => sum + (p.estimate?.known ?? p.value), 0),
        };
  return {
    value: present.reduce((sum, p) => sum + p.value, 0),
    concepts: present.flatMap((p) => p.concepts),
    accns: [...new Set(present.flatMap((p) => p.accns))],
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    ...(estimate ? { estimate } : {}),
  };
}

/** The `figure_sources` text of a figure: `us-gaap:A + us-gaap:B @ accession[, accession] (note)`. */
export function describeFigure(figure: Figure): string {
  const text = `${figure.concepts.length > 0 ? figure.concepts.join(' + ') : 'no concept'} @ ${figure.accns.join(', ')}`;
  return figure.note ? `${text} (${figure.note})` : text;
}
