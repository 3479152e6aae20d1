/**
 * Business-activity evidence from the revenue concepts a company's own filings use: a
 * fiscal-year fact of a concept that names a screened activity, divided by that year's revenue,
 * is an exposure row dated the day the 10-K was filed. The concepts and what each counts as are
 * in docs/data/real-companies.md ("Evidence levels").
 */
import type { ActivityCode, Involvement } from '../../engine/inputs.ts';
import type { CompanyFacts, Fact } from './edgar-formats.ts';

export interface ConceptExposure {
  activity: ActivityCode;
  revenue_share: number;
  as_of: string;
  source_ref: string;
  /** `retired_concept` for a concept the taxonomy has since retired: its last figure still shows the activity existed. */
  evidence: 'filing_concept' | 'retired_concept';
  /** What the concept says about how the company takes part (docs/data/activities.md, "Involvement"). */
  involvement: Involvement;
  /** Fiscal-year end the share is for. */
  period_end: string;
}

interface ActivityConcept {
  activity: ActivityCode;
  /** Revenue under these concepts is earned by running the activity itself. */
  involvement: Involvement;
  /** Any of these concepts (summed when several are reported for one year). */
  concepts: readonly string[];
  /** Only when the company also reports this instant concept (a bank holds deposits). */
  requires?: string;
  /** The taxonomy retired these concepts: no later figure can exist in them (docs/data/real-companies.md). */
  retired?: true;
}

const ACTIVITY_CONCEPTS: readonly ActivityConcept[] = [
  // Casino revenue is the operator's own gaming win; earned premiums are the underwriter's.
  // CasinoRevenue was retired with ASC 606 (2018): operators now tag casino revenue as a
  // product-line member of RevenueFromContractWithCustomer, which company facts do not carry.
  { activity: 'gambling', involvement: 'producer', concepts: ['CasinoRevenue'], retired: true },
  { activity: 'conventional_insurance', involvement: 'producer', concepts: ['PremiumsEarnedNet'] },
  // Interest income is a bank's core business only when it takes deposits: an insurer or a
  // retailer also reports interest and dividend income from its investments.
  { activity: 'conventional_finance', involvement: 'producer', concepts: ['InterestAndDividendIncomeOperating'], requires: 'Deposits' },
  // Admissions are sold by the venue's operator (a cinema, a park).
  { activity: 'media_entertainment', involvement: 'producer', concepts: ['AdmissionsRevenue'] },
];

/** Revenue concepts, in preference order; a bank's total is interest income plus non-interest income. */
const REVENUE_CONCEPTS = [
  'Revenues',
  'RevenueFromContractWithCustomerExcludingAssessedTax',
  'SalesRevenueNet',
  'RevenueFromContractWithCustomerIncludingAssessedTax',
];

const DAY_MS = 86_400_000;

function isFiscalYear(f: Fact): boolean {
  if (f.start === undefined || f.form !== '10-K') return false;
  const days = (Date.parse(f.end) - Date.parse(f.start)) / DAY_MS;
  return days >= 350 && days <= 380;
}

/** Fiscal-year facts of a concept reported by each 10-K for its own fiscal year, keyed by accession. */
function annualByAccession(facts: CompanyFacts, concept: string): Map<string, Fact> {
  const units = facts.facts['us-gaap']?.[concept]?.units.USD ?? [];
  const byAccession = new Map<string, Fact>();
  for (const f of units) {
    if (!isFiscalYear(f)) continue;
    const seen = byAccession.get(f.accn);
    if (seen === undefined || f.end > seen.end) byAccession.set(f.accn, f);
  }
  return byAccession;
}

function reports(facts: CompanyFacts, concept: string): boolean {
  return (facts.facts['us-gaap']?.[concept]?.units.USD?.length ?? 0) > 0;
}

/** The filing's fiscal-year revenue for the year ending `end`, with the concept it came from. */
function revenueOf(facts: CompanyFacts, accession: string, end: string, bank: boolean): { value: number; concept: string } | null {
  const pick = (concept: string): number | null => {
    const f = annualByAccession(facts, concept).get(accession);
    return f !== undefined && f.end === end ? f.val : null;
  };
  if (bank) {
    const interest = pick('InterestAndDividendIncomeOperating');
    const other = pick('NoninterestIncome');
    if (interest !== null && other !== null)
      return { value: interest + other, concept: 'InterestAndDividendIncomeOperating + NoninterestIncome' };
  }
  for (const concept of REVENUE_CONCEPTS) {
    const value = pick(concept);
    if (value !== null && value > 0) return { value, concept };
  }
  return null;
}

/** One exposure row per 10-K and activity concept the company reports for that fiscal year. */
export function exposuresFromCompanyFacts(facts: CompanyFacts): ConceptExposure[] {
  const rows: ConceptExposure[] = [];
  for (const rule of ACTIVITY_CONCEPTS) {
    if (rule.requires !== undefined && !reports(facts, rule.requires)) continue;
    const perAccession = new Map<string, { fact: Fact; total: number; concepts: string[] }>();
    for (const concept of rule.concepts) {
      for (const [accession, fact] of annualByAccession(facts, concept)) {
        const entry = perAccession.get(accession) ?? { fact, total: 0, concepts: [] };
        entry.total += fact.val;
        entry.concepts.push(concept);
        perAccession.set(accession, entry);
      }
    }
    for (const [accession, { fact, total, concepts }] of perAccession) {
      const revenue = revenueOf(facts, accession, fact.end, rule.activity === 'conventional_finance');
      if (revenue === null || total < 0) continue;
      rows.push({
        activity: rule.activity,
        revenue_share: Math.min(1, total / revenue.value),
        as_of: fact.filed,
        source_ref: `edgar:${accession} us-gaap:${concepts.join('+')} / us-gaap:${revenue.concept} FY${fact.end.slice(0, 4)}`,
        evidence: rule.retired === true ? 'retired_concept' : 'filing_concept',
        involvement: rule.involvement,
        period_end: fact.end,
      });
    }
  }
  return rows.sort((a, b) => a.as_of.localeCompare(b.as_of) || a.activity.localeCompare(b.activity));
}

/** Filing dates of the company's annual reports (10-K, any fact), ascending: when curated evidence is re-affirmed. */
export function annualReportDates(facts: CompanyFacts): string[] {
  const dates = new Set<string>();
  for (const taxonomy of Object.values(facts.facts)) {
    for (const concept of Object.values(taxonomy)) {
      for (const list of Object.values(concept.units)) for (const f of list) if (f.form === '10-K') dates.add(f.filed);
    }
  }
  return [...dates].sort();
}
