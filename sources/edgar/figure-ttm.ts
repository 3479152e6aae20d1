/**
 * Trailing twelve months of one flow from whatever periods the filings report
 * (docs/data/sources.md, "edgar", "Trailing twelve months"): the twelve months are a chain of
 * consecutive segments, each a reported period (a fiscal year, a year to date, a quarter) or
 * the difference of two reported periods that start on the same day (a quarter or a fourth
 * quarter derived from year-to-date values). The chain with the fewest segments wins; with
 * one quarter reported nowhere, the twelve months are an estimate with the rule in the note.
 */
import type { CompanyFacts, Fact } from './edgar-formats.ts';
import { days, factsOf, known, near, shiftDays, type Figure, type Filing } from './figure-facts.ts';

/** One link of the chain: the period after `from` up to `to`, its value and the facts behind it. */
interface Segment {
  from: string;
  to: string;
  value: number;
  parts: Fact[];
  text: string;
  derived: boolean;
}

/** Chain links meet when their dates are this close (52/53-week calendars tag exact days, amendments may not). */
const JOIN_DAYS = 3;
/** Most links in one chain: four quarters. */
const MAX_LINKS = 4;
/** A missing link that may be estimated is one quarter long. */
const GAP_DAYS = { min: 80, max: 100 };
const YEAR_DAYS = { min: 350, max: 380 };

const DAY = 86_400_000;
const span = (f: Fact): number => days(f.start!, f.end) + 1;
const minusYear = (date: string): string => `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;

/** Each period once (the first in the caller's preference order: the filing's own, then the latest filed). */
function distinctPeriods(durations: readonly Fact[]): Fact[] {
  const seen = new Set<string>();
  return durations.filter((f) => {
    const key = `${f.start}/${f.end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Reported periods and the differences of same-start periods, within the year before `end`;
 * `yearBased`: only a fiscal year, a fiscal year less a year to date, and a year to date.
 */
function segmentsOf(durations: readonly Fact[], start: string, end: string, yearBased: boolean): Segment[] {
  // Date strings compare in order; each bound is computed once (Date.parse dominates this loop).
  const [latest, earliest] = [shiftDays(end, 5), shiftDays(start, -7)];
  const facts = distinctPeriods(durations).filter((f) => f.end <= latest && f.end >= earliest && span(f) <= YEAR_DAYS.max);
  const startDay = new Map(facts.map((f) => [f, Date.parse(f.start!) / DAY]));
  const out: Segment[] = [];
  for (const f of facts) {
    if (f.start! >= earliest)
      out.push({ from: shiftDays(f.start!, -1), to: f.end, value: f.val, parts: [f], text: `${f.start}..${f.end}`, derived: false });
  }
  for (const long of facts) {
    for (const short of facts) {
      if (short === long || short.end >= long.end || Math.abs(startDay.get(short)! - startDay.get(long)!) > JOIN_DAYS) continue;
      out.push({
        from: short.end,
        to: long.end,
        value: long.val - short.val,
        parts: [long, short],
        text: `(${long.start}..${long.end} − ${short.start}..${short.end})`,
        derived: true,
      });
    }
  }
  const yearEnds = facts.filter((f) => span(f) >= YEAR_DAYS.min).map((f) => f.end);
  const afterYear = (s: Segment): boolean => !s.derived && yearEnds.some((e) => near(e, s.from, JOIN_DAYS));
  const kept = yearBased ? out.filter((s) => rank(s) <= 1 || afterYear(s)) : out;
  return kept.sort((a, b) => rank(a) - rank(b));
}

/**
 * Among chains of one length, the order of preference: a fiscal year as filed, a fiscal year less
 * a year to date, then reported periods, then other differences.
 */
function rank(s: Segment): number {
  const fromYear = span(s.parts[0]!) >= YEAR_DAYS.min;
  if (fromYear) return s.derived ? 1 : 0;
  return s.derived ? 3 : 2;
}

interface Chain {
  links: Segment[];
  /** The estimated quarter, when one link is missing. */
  gap?: { from: string; to: string };
}

/** Depth-first search for chains of at most `depth` links from `at` to `end`, allowing one quarter-long gap when asked. */
function search(segments: readonly Segment[], at: string, end: string, depth: number, gapAllowed: boolean, links: Segment[]): Chain | null {
  if (near(at, end, 5) && links.length > 0) return { links: [...links] };
  if (depth === 0 || at > shiftDays(end, 5)) return null;
  for (const s of segments) {
    if (!near(s.from, at, JOIN_DAYS) || s.to <= at) continue;
    links.push(s);
    const found = search(segments, s.to, end, depth - 1, gapAllowed, links);
    links.pop();
    if (found) return found;
  }
  if (!gapAllowed) return null;
  // A gap of one quarter, from here to where a link starts or to the end.
  const targets = [...new Set([end, ...segments.map((s) => s.from)])].filter((t) => {
    const length = days(at, t);
    return length >= GAP_DAYS.min && length <= GAP_DAYS.max;
  });
  for (const t of targets) {
    const rest = near(t, end, 5) ? { links: [] as Segment[] } : search(segments, t, end, depth - 1, false, []);
    if (rest && (links.length > 0 || rest.links.length > 0)) return { links: [...links, ...rest.links], gap: { from: at, to: t } };
  }
  return null;
}

/** The chain with the fewest links covering the twelve months to `end` (one quarter-long gap only when `allowGap`). */
function chainTo(durations: readonly Fact[], end: string, allowGap: boolean, yearBased = false): Chain | null {
  const start = minusYear(end);
  const segments = segmentsOf(durations, start, end, yearBased);
  // Where the twelve months may begin: a link's start, or (for a missing first quarter) the end of an earlier period.
  const boundaries = [...new Set([...segments.map((s) => s.from), ...durations.map((f) => f.end)])].filter((d) => near(d, start, 7));
  const starts = allowGap ? [...boundaries, start] : boundaries.filter((d) => segments.some((s) => s.from === d));
  for (let depth = 1; depth <= (yearBased ? 2 : MAX_LINKS); depth++) {
    for (const from of starts) {
      const chain = search(segments, from, end, depth, allowGap, []);
      if (!chain) continue;
      const to = chain.gap && near(chain.gap.to, end, 5) ? chain.gap.to : chain.links.at(-1)!.to;
      const length = days(chain.gap && chain.links[0]!.from > chain.gap.from ? chain.gap.from : chain.links[0]!.from, to);
      if (length >= YEAR_DAYS.min && length <= YEAR_DAYS.max) return chain;
    }
  }
  return null;
}

const accessions = (links: readonly Segment[]): string[] => [...new Set(links.flatMap((s) => s.parts.map((f) => f.accn)))];

/** The familiar wording for the two common chains; the links themselves otherwise. */
function describeChain(links: readonly Segment[]): { note: string; accns: string[] } {
  const [first, second] = links;
  if (links.length === 1 && !first!.derived && span(first!.parts[0]!) >= YEAR_DAYS.min)
    return { note: `fiscal year ${first!.parts[0]!.start}..${first!.parts[0]!.end}`, accns: accessions(links) };
  if (links.length === 2 && first!.derived && !second!.derived && span(first!.parts[0]!) >= YEAR_DAYS.min) {
    const [year, priorYtd] = first!.parts as [Fact, Fact];
    const ytd = second!.parts[0]!;
    return {
      note: `TTM = fiscal year to ${year.end} + ${ytd.start}..${ytd.end} − ${priorYtd.start}..${priorYtd.end}`,
      accns: [...new Set([year.accn, ytd.accn, priorYtd.accn])],
    };
  }
  return { note: `TTM = ${links.map((s) => s.text).join(' + ')}`, accns: accessions(links) };
}

/** Trailing twelve months of `concept` ending at `end` from the durations known, exactly, or null; `yearBased`: from a fiscal year only. */
export function exactTtm(durations: readonly Fact[], end: string, concept: string, yearBased = false): Figure | null {
  const chain = chainTo(durations, end, false, yearBased);
  if (!chain) return null;
  const { note, accns } = describeChain(chain.links);
  return { value: chain.links.reduce((sum, s) => sum + s.value, 0), concepts: [`us-gaap:${concept}`], accns, note };
}

/**
 * Trailing twelve months ending at `end` when exactly one quarter of them is reported nowhere:
 * the known links plus that quarter estimated pro rata by days from the known months. The
 * figure carries the rule and the known sum (a lower bound of a flow that is never negative).
 */
export function estimatedTtm(durations: readonly Fact[], end: string, concept: string): Figure | null {
  const chain = chainTo(durations, end, true);
  if (!chain?.gap || chain.links.length === 0) return null;
  const known = chain.links.reduce((sum, s) => sum + s.value, 0);
  const knownDays = chain.links.reduce((sum, s) => sum + days(s.from, s.to), 0);
  const gapDays = days(chain.gap.from, chain.gap.to);
  const value = known + (known * gapDays) / knownDays;
  const { gap } = chain;
  const rule =
    `${shiftDays(gap.from, 1)}..${gap.to} is reported in no filing: estimated as the ${knownDays} days reported, ` +
    `pro rata (${gapDays} / ${knownDays} of ${known.toLocaleString('en-US')})`;
  return {
    value,
    concepts: [`us-gaap:${concept}`],
    accns: accessions(chain.links),
    note: `estimate: TTM = ${chain.links.map((s) => s.text).join(' + ')} + the missing quarter; ${rule}`,
    estimate: { rule, known },
  };
}

/** Flows of a us-gaap concept known by the filing and ending by its period end (±5 days). */
function durationsKnown(facts: CompanyFacts, concept: string, filing: Filing): Fact[] {
  const latest = shiftDays(filing.periodEnd, 5);
  return known(factsOf(facts, 'us-gaap', concept), filing).filter((f) => f.start !== undefined && f.end <= latest);
}

/** Which chains a TTM may use: any, or (per-share dividends, whose quarterly tags follow payment dates) a fiscal year only. */
export interface TtmOptions {
  recentMonths?: number;
  yearBased?: boolean;
}

/**
 * Trailing-twelve-month value of a us-gaap flow at the filing's period end, from any chain of
 * reported periods and same-start differences: the fiscal year itself, last fiscal year + this
 * year to date − last year's, four quarters, quarters derived from year-to-date values. With
 * `recentMonths`, when that cannot be derived, the latest twelve months ending at most that
 * long before (noted).
 */
export function ttmFigure(facts: CompanyFacts, concept: string, filing: Filing, options: TtmOptions = {}): Figure | null {
  const { recentMonths = 0, yearBased = false } = options;
  const durations = durationsKnown(facts, concept, filing);
  const exact = exactTtm(durations, filing.periodEnd, concept, yearBased);
  if (exact || recentMonths === 0) return exact;
  const ends = [...new Set(durations.map((f) => f.end))]
    .filter((e) => days(e, filing.periodEnd) <= recentMonths * 31)
    .sort()
    .reverse();
  for (const end of ends) {
    const recent = exactTtm(durations, end, concept, yearBased);
    if (recent) return { ...recent, note: `${recent.note}; the latest twelve months reported, ${end} (not ${filing.periodEnd})` };
  }
  return null;
}

/**
 * Trailing twelve months at the filing's period end with one quarter reported nowhere, that
 * quarter estimated pro rata from the known months, or null.
 */
export function estimatedTtmFigure(facts: CompanyFacts, concept: string, filing: Filing): Figure | null {
  return estimatedTtm(durationsKnown(facts, concept, filing), filing.periodEnd, concept);
}
