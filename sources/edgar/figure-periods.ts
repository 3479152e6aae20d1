/**
 * Which periodic filings of a companyfacts file become fundamentals rows, and the period each
 * reports (docs/data/sources.md, "edgar").
 */
import { PERIODIC_FORMS } from './edgar-concepts.ts';
import type { CompanyFacts } from './edgar-formats.ts';
import type { Filing } from './figure-facts.ts';

/** Fewest facts sharing an end date for it to count as a filing's period when `Assets` is missing. */
const MIN_FACTS_AT_PERIOD_END = 3;

/** Each periodic accession with its period end: the latest `Assets` date, else the latest end date most of its facts share. */
function candidatesOf(facts: CompanyFacts, taxonomy: string): Filing[] {
  const ends = new Map<string, { filed: string; assetsEnd: string | null; counts: Map<string, number> }>();
  for (const [concept, { units }] of Object.entries(facts.facts[taxonomy] ?? {})) {
    for (const list of Object.values(units)) {
      for (const fact of list) {
        if (!PERIODIC_FORMS.has(fact.form) || fact.end > fact.filed) continue;
        const entry = ends.get(fact.accn) ?? { filed: fact.filed, assetsEnd: null, counts: new Map<string, number>() };
        entry.counts.set(fact.end, (entry.counts.get(fact.end) ?? 0) + 1);
        if (concept === 'Assets' && (entry.assetsEnd === null || fact.end > entry.assetsEnd)) entry.assetsEnd = fact.end;
        ends.set(fact.accn, entry);
      }
    }
  }
  const out: Filing[] = [];
  for (const [accn, e] of ends) {
    const shared = [...e.counts]
      .filter(([, n]) => n >= MIN_FACTS_AT_PERIOD_END)
      .map(([end]) => end)
      .sort();
    const periodEnd = e.assetsEnd ?? shared.at(-1);
    if (periodEnd !== undefined) out.push({ accn, filed: e.filed, periodEnd });
  }
  return out;
}

/**
 * The periodic filings (10-K, 10-Q, their amendments, 20-F, 40-F) in filing order, one per
 * filing date. A filing whose period is older than one already filed (a late amendment of an
 * old quarter) gets no row of its own: a screen after it still uses the latest period, and the
 * amended facts reach later rows through `known`. On one day, the latest period wins.
 */
export function periodicFilings(facts: CompanyFacts, taxonomy = 'us-gaap'): Filing[] {
  const sorted = candidatesOf(facts, taxonomy).sort(
    (a, b) => a.filed.localeCompare(b.filed) || a.periodEnd.localeCompare(b.periodEnd) || a.accn.localeCompare(b.accn),
  );
  const rows: Filing[] = [];
  let latestEnd = '';
  for (const c of sorted) {
    if (c.periodEnd < latestEnd) continue;
    latestEnd = c.periodEnd;
    if (rows.at(-1)?.filed === c.filed) rows[rows.length - 1] = c;
    else rows.push(c);
  }
  return rows;
}
