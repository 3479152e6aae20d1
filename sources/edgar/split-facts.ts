/**
 * Stock splits from the ratio a company tags in its filings
 * (`us-gaap:StockholdersEquityNoteStockSplitConversionRatio1`). A split is tagged again in
 * several later filings, sometimes with other dates (the announcement, the record date, the
 * month it fell in); the dates of one split lie within weeks of each other, and the one the
 * latest filing gives is kept. See docs/data/real-companies.md, "One split basis".
 */
import type { CompanyFacts, Fact } from './edgar-formats.ts';

export interface SplitRow {
  ex_date: string;
  ratio: number;
  source_ref: string;
}

const SPLIT_CONCEPT = 'StockholdersEquityNoteStockSplitConversionRatio1';
/** Facts of one ratio whose dates lie this close together are one split. */
const SAME_SPLIT_DAYS = 120;
const DAY_MS = 86_400_000;

export function splitsFromCompanyFacts(facts: CompanyFacts): SplitRow[] {
  const tagged = (facts.facts['us-gaap']?.[SPLIT_CONCEPT]?.units.pure ?? []).filter((f) => f.val > 0 && f.val !== 1);
  const groups: Fact[][] = [];
  for (const fact of [...tagged].sort((a, b) => a.end.localeCompare(b.end))) {
    const group = groups.find(
      (g) => g[0]!.val === fact.val && Math.abs(Date.parse(fact.end) - Date.parse(g[0]!.end)) <= SAME_SPLIT_DAYS * DAY_MS,
    );
    if (group) group.push(fact);
    else groups.push([fact]);
  }
  return groups.map((group) => {
    const latest = group.reduce((a, b) => (b.filed > a.filed ? b : a));
    return { ex_date: latest.end, ratio: latest.val, source_ref: `edgar:${latest.accn} us-gaap:${SPLIT_CONCEPT}` };
  });
}
