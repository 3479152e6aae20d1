/**
 * The screening figures of one filing, each with its source or the reason it is missing:
 * debt, cash, interest-bearing investments, receivables, revenue, interest income, dividends
 * and shares. What counts as what, and why, is in docs/data/sources.md ("edgar").
 */
import {
  CASH,
  DEBT,
  DIVIDENDS_PER_SHARE,
  INTEREST_INCOME,
  INVESTMENTS,
  NET_INTEREST,
  RECEIVABLES,
  REVENUE,
  SHARES_CONCEPTS,
  WEIGHTED_SHARES,
  type Alternatives,
} from './edgar-concepts.ts';
import type { CompanyFacts } from './edgar-formats.ts';
import { debtFreeProof } from './figure-debt-free.ts';
import {
  days,
  describeFigure,
  factsOf,
  instantFigure,
  known,
  near,
  shiftDays,
  sumFigures,
  yearToDateFigure,
  type Figure,
  type Filing,
} from './figure-facts.ts';
import { estimatedTtmFigure, ttmFigure } from './figure-ttm.ts';

/** A figure, or null with the reason it could not be read. */
export interface Sourced {
  figure: Figure | null;
  missing?: string;
  /** When the figure is unknown: a proven lower bound of it (it can prove a breach, never a pass). */
  atLeast?: Figure;
}

/** How far back a flow may end when this period's trailing twelve months cannot be derived. */
const RECENT_MONTHS = 12;

type Lookup = (concept: string) => Figure | null;

/** The first alternative with any member reported: the sum of its reported members. */
export function firstAlternative(alternatives: Alternatives, lookup: Lookup): Figure | null {
  for (const members of alternatives) {
    const sum = sumFigures(members.map(lookup));
    if (sum !== null) return sum;
  }
  return null;
}

const found = (figure: Figure | null, missing: string): Sourced => (figure ? { figure } : { figure: null, missing });
const bare = (concept: string): string => concept.slice(concept.indexOf(':') + 1);
const formatUsd = (v: number): string => v.toLocaleString('en-US');

export interface FigureContext {
  facts: CompanyFacts;
  filing: Filing;
}

function instantLookup(ctx: FigureContext): Lookup {
  return (concept) => instantFigure(ctx.facts, concept, ctx.filing);
}

/** True when some fact of these concepts, known by the filing and ending within a year before its period, is positive. */
function recentlyPositive(ctx: FigureContext, alternatives: Alternatives): string | null {
  for (const [concept] of alternatives) {
    const hit = known(factsOf(ctx.facts, 'us-gaap', concept!), ctx.filing).find(
      (f) => f.val > 0 && f.end <= ctx.filing.periodEnd && days(f.end, ctx.filing.periodEnd) <= 366,
    );
    if (hit) return `us-gaap:${concept} ${formatUsd(hit.val)} @ ${hit.accn}`;
  }
  return null;
}

/**
 * Interest-bearing debt: current + non-current borrowings (or a total) + finance leases. Without any debt line, 0 when the
 * balance sheet's other liability lines make up its total liabilities (`figure-debt-free.ts`); an estimated 0 when they do
 * not but no interest expense is reported either; otherwise unknown.
 */
export function debtFigure(ctx: FigureContext): Sourced {
  const at = (alternatives: Alternatives): Figure | null => firstAlternative(alternatives, instantLookup(ctx));
  const current = at(DEBT.currentTotal) ?? sumFigures([at(DEBT.currentLongTerm), at(DEBT.shortTerm)]);
  const noncurrent = at(DEBT.noncurrent);
  let borrowings: Figure | null;
  if (noncurrent) borrowings = sumFigures([current, noncurrent]);
  else {
    const total = at(DEBT.total);
    const includesShortTerm = total?.concepts.some((c) => (DEBT.includesShortTerm as readonly string[]).includes(bare(c))) ?? false;
    // A total includes current maturities: only short-term borrowings are added to it.
    borrowings = total ? sumFigures([total, includesShortTerm ? null : at(DEBT.shortTerm)]) : current;
  }
  const leasesIncluded = borrowings?.concepts.some((c) => (DEBT.includesFinanceLeases as readonly string[]).includes(bare(c))) ?? false;
  const leaseTotal = leasesIncluded ? null : at(DEBT.financeLeaseTotal);
  const leaseParts = leasesIncluded ? null : at(DEBT.financeLeaseParts);
  const leases = leaseTotal && leaseParts ? (leaseParts.value > leaseTotal.value ? leaseParts : leaseTotal) : (leaseTotal ?? leaseParts);
  const debt = sumFigures([borrowings, leases]);
  if (debt) return { figure: debt };
  if (!instantFigure(ctx.facts, 'Assets', ctx.filing))
    return { figure: null, missing: 'no debt concept and no balance sheet (us-gaap:Assets) at the period end' };
  const proof = debtFreeProof(ctx.facts, ctx.filing);
  const interest = recentlyPositive(ctx, DEBT.interestExpense);
  if ('lines' in proof) {
    const lines = proof.lines.map((c) => `us-gaap:${c}`).join(' + ');
    const paid = interest ? `; the interest expense of the year (${interest}) leaves no borrowing on this balance sheet` : '';
    return {
      figure: {
        value: 0,
        concepts: [],
        accns: [ctx.filing.accn],
        note: `no debt or finance lease line; the liability lines ${lines} make up total liabilities, none a borrowing: 0${paid}`,
      },
    };
  }
  if (interest)
    return {
      figure: null,
      missing: `no us-gaap debt concept at the period end, yet interest expense is reported (${interest}), and ${proof.why}: debt unknown`,
    };
  const rule = `no debt or finance lease line and no interest expense, but ${proof.why}: estimated as 0`;
  return { figure: { value: 0, concepts: [], accns: [ctx.filing.accn], note: rule, estimate: { rule, known: 0 } } };
}

export function cashFigure(ctx: FigureContext): Sourced {
  return found(firstAlternative(CASH, instantLookup(ctx)), 'no cash concept at the period end');
}

/** Interest-bearing securities outside cash: current and non-current lines, or each kind of debt security on an unclassified balance sheet. */
export function investmentsFigure(ctx: FigureContext): Sourced {
  const lookup = instantLookup(ctx);
  const classified = lookup('AssetsCurrent') !== null;
  const figure = classified
    ? sumFigures([firstAlternative(INVESTMENTS.current, lookup), firstAlternative(INVESTMENTS.noncurrent, lookup)])
    : sumFigures(INVESTMENTS.unclassified.map((alternatives) => firstAlternative(alternatives, lookup)));
  const generic = INVESTMENTS.generic.map(lookup).filter((f): f is Figure => f !== null);
  const notCounted =
    generic.length > 0
      ? `not counted, generic investments (usually equity): ${generic.map((g) => `${g.concepts[0]} ${formatUsd(g.value)}`).join(', ')}`
      : undefined;
  if (figure) return { figure: notCounted ? { ...figure, note: [figure.note, notCounted].filter(Boolean).join('; ') } : figure };
  if (!lookup('Assets')) return { figure: null, missing: 'no securities concept and no balance sheet (us-gaap:Assets) at the period end' };
  const note = ['no marketable or debt securities line on the balance sheet: counted as 0', notCounted].filter(Boolean).join('; ');
  return { figure: { value: 0, concepts: [], accns: [ctx.filing.accn], note } };
}

export function receivablesFigure(ctx: FigureContext): Sourced {
  return found(firstAlternative(RECEIVABLES, instantLookup(ctx)), 'no receivables concept at the period end');
}

/** Trailing twelve months of the first alternative that has them at the period end, else the most recent within a year. */
function ttmOfFirst(ctx: FigureContext, alternatives: Alternatives, yearBased = false): Figure | null {
  for (const recentMonths of [0, RECENT_MONTHS]) {
    const figure = firstAlternative(alternatives, (concept) => ttmFigure(ctx.facts, concept, ctx.filing, { recentMonths, yearBased }));
    if (figure) return figure;
  }
  return null;
}

/** The largest of the revenue candidates each lookup gives (the most complete total), or null. */
function largestRevenue(lookup: Lookup): Figure | null {
  const candidates = REVENUE.map((members) => sumFigures(members.map(lookup))).filter((f): f is Figure => f !== null);
  return candidates.length === 0 ? null : candidates.reduce((best, f) => (f.value > best.value ? f : best));
}

/**
 * Total revenue: the largest trailing-twelve-month total among the revenue concepts (the most complete); with one
 * quarter reported nowhere, an estimate that says so.
 */
export function revenueFigure(ctx: FigureContext): Sourced {
  for (const recentMonths of [0, RECENT_MONTHS]) {
    const figure = largestRevenue((c) => ttmFigure(ctx.facts, c, ctx.filing, { recentMonths }));
    if (figure) return { figure };
  }
  const estimate = largestRevenue((c) => estimatedTtmFigure(ctx.facts, c, ctx.filing));
  return found(estimate, 'no revenue concept with twelve months of values');
}

/** True when a concept of these has a fact known by the filing and ending within a year before its period end. */
function reportedWithinYear(ctx: FigureContext, alternatives: Alternatives): boolean {
  return alternatives.some(([concept]) =>
    known(factsOf(ctx.facts, 'us-gaap', concept!), ctx.filing).some(
      (f) => f.end <= shiftDays(ctx.filing.periodEnd, 5) && days(f.end, ctx.filing.periodEnd) <= 366,
    ),
  );
}

const withTier = (tier: string, figure: Figure): Figure => ({ ...figure, note: [tier, figure.note].filter(Boolean).join('; ') });

/**
 * Interest income: interest proper, then interest with other income, then interest proper with
 * one quarter estimated (the reported months its lower bound); the non-operating proxy only for
 * a filer that reports interest nowhere else. When interest is reported but not for enough
 * months, or only net of interest expense, the figure is unknown and what is known is a lower
 * bound (docs/data/sources.md, "edgar"): this year to date, a positive net.
 */
export function interestIncomeFigure(ctx: FigureContext): Sourced {
  const { interest, withOther: together, proxy } = INTEREST_INCOME;
  const exact = ttmOfFirst(ctx, interest.alternatives);
  if (exact) return { figure: exact };
  const withOther = ttmOfFirst(ctx, together.alternatives);
  if (withOther) return { figure: withTier(together.tier, withOther) };
  const estimate = firstAlternative(interest.alternatives, (c) => estimatedTtmFigure(ctx.facts, c, ctx.filing));
  if (estimate) {
    // The reported months are a lower bound of the twelve (interest income is never negative): they alone can prove a breach.
    const known = estimate.estimate!.known;
    return known > 0 ? { figure: estimate, atLeast: { ...estimate, value: known, note: 'the months reported' } } : { figure: estimate };
  }
  const reportsInterest = reportedWithinYear(ctx, interest.alternatives);
  const reportsNet = reportedWithinYear(ctx, NET_INTEREST);
  if (!reportsInterest && !reportsNet) {
    const guess = ttmOfFirst(ctx, proxy.alternatives);
    if (guess && guess.value > 0) return { figure: withTier(proxy.tier, guess) };
    return { figure: null, missing: 'interest income not reported apart (no interest income concept, no positive non-operating income)' };
  }
  const ytd = firstAlternative(interest.alternatives, (c) => yearToDateFigure(ctx.facts, c, ctx.filing));
  const net = firstAlternative(NET_INTEREST, (c) => ttmFigure(ctx.facts, c, ctx.filing));
  const why = reportsInterest
    ? `interest income is reported${ytd ? ` for ${ytd.note}` : ''} but not for twelve months (two quarters or more of them are reported in no filing)`
    : `only interest net of interest expense is reported${net ? ` (${describeFigure(net)})` : ''}: interest income itself is unknown`;
  const bounds = [ytd, net].filter((b): b is Figure => b !== null && b.value > 0);
  if (bounds.length === 0) return { figure: null, missing: `${why}; no lower bound above 0` };
  const atLeast = bounds.reduce((best, b) => (b.value > best.value ? b : best));
  return {
    figure: null,
    missing: `${why}; at least ${formatUsd(atLeast.value)} (${describeFigure(atLeast)}), a lower bound that can prove a breach, never a pass`,
    atLeast,
  };
}

export function dividendsFigure(ctx: FigureContext): Sourced {
  // Quarterly per-share tags follow payment dates (two semi-annual payments tagged in three quarters): a fiscal year only.
  return found(ttmOfFirst(ctx, DIVIDENDS_PER_SHARE, true), 'no dividends-per-share concept with twelve months of values');
}

/** Shares outstanding at or after the period end: cover page, balance sheet, then the basic weighted average of the period. */
export function sharesFigure(ctx: FigureContext): Sourced {
  const { facts, filing } = ctx;
  for (const [taxonomy, concept] of SHARES_CONCEPTS) {
    const fact = known(factsOf(facts, taxonomy, concept), filing).find((f) => f.start === undefined && days(filing.periodEnd, f.end) >= -3);
    if (fact) return { figure: { value: fact.val, concepts: [`${taxonomy}:${concept}`], accns: [fact.accn], note: `as of ${fact.end}` } };
  }
  const weighted = known(factsOf(facts, 'us-gaap', WEIGHTED_SHARES), filing)
    .filter((f) => f.start !== undefined && near(f.end, filing.periodEnd, 5))
    .sort((a, b) => days(a.start!, a.end) - days(b.start!, b.end))[0];
  if (weighted)
    return {
      figure: {
        value: weighted.val,
        concepts: [`us-gaap:${WEIGHTED_SHARES}`],
        accns: [weighted.accn],
        note: `basic weighted average ${weighted.start}..${weighted.end}: no share count on the cover page or balance sheet`,
      },
    };
  return { figure: null, missing: 'no share count (cover page, balance sheet or weighted average)' };
}
