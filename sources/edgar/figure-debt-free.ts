/**
 * Debt read as zero from a balance sheet that tags no debt concept (docs/data/sources.md,
 * "edgar", "Debt-free balance sheets"): only when the filing's own liability lines, none of
 * them a borrowing, add up to its total liabilities to the dollar. Then every liability is
 * named and no borrowing can hide among them.
 */
import type { CompanyFacts, Fact } from './edgar-formats.ts';
import { factsOf, near, type Filing } from './figure-facts.ts';

/** Current liability lines that are not borrowings (trade and accrued payables, taxes, deferred revenue, operating leases). */
const CURRENT_LINES = [
  'AccountsPayableCurrent',
  'AccountsPayableTradeCurrent',
  'AccountsPayableRelatedPartiesCurrent',
  'AccountsPayableAndAccruedLiabilitiesCurrent',
  'AccruedLiabilitiesCurrent',
  'OtherAccruedLiabilitiesCurrent',
  'EmployeeRelatedLiabilitiesCurrent',
  'AccruedSalariesCurrent',
  'AccruedEmployeeBenefitsCurrent',
  'TaxesPayableCurrent',
  'AccruedIncomeTaxesCurrent',
  'SalesAndExciseTaxPayableCurrent',
  'AccrualForTaxesOtherThanIncomeTaxesCurrent',
  'ContractWithCustomerLiabilityCurrent',
  'DeferredRevenueCurrent',
  'CustomerAdvancesCurrent',
  'DividendsPayableCurrent',
  'OperatingLeaseLiabilityCurrent',
  'DerivativeLiabilitiesCurrent',
  'ProductWarrantyAccrualClassifiedCurrent',
  'RestructuringReserveCurrent',
  'SelfInsuranceReserveCurrent',
  'AccruedRoyaltiesCurrent',
  'AccruedMarketingCostsCurrent',
  'AccountsPayableOtherCurrent',
  'AccruedRentCurrent',
  'AccruedProfessionalFeesCurrent',
  'AccruedInsuranceCurrent',
  'AccruedUtilitiesCurrent',
  'CustomerDepositsCurrent',
  'ContractWithCustomerRefundLiabilityCurrent',
  'DeferredRevenueAndCreditsCurrent',
  'DeferredRentCreditCurrent',
  'DeferredCompensationLiabilityCurrent',
  'LitigationReserveCurrent',
  'ProductWarrantyAccrualCurrent',
  'OtherSundryLiabilitiesCurrent',
  'OtherLiabilitiesCurrent',
] as const;

/** Non-current liability lines that are not borrowings. */
const NONCURRENT_LINES = [
  'OperatingLeaseLiabilityNoncurrent',
  'DeferredIncomeTaxLiabilitiesNet',
  'DeferredIncomeTaxLiabilities',
  'DeferredTaxLiabilitiesNoncurrent',
  'ContractWithCustomerLiabilityNoncurrent',
  'DeferredRevenueNoncurrent',
  'AccruedIncomeTaxesNoncurrent',
  'LiabilityForUncertainTaxPositionsNoncurrent',
  'DefinedBenefitPensionPlanLiabilitiesNoncurrent',
  'PensionAndOtherPostretirementDefinedBenefitPlansLiabilitiesNoncurrent',
  'DeferredCompensationLiabilityClassifiedNoncurrent',
  'EmployeeRelatedLiabilitiesNoncurrent',
  'AssetRetirementObligationsNoncurrent',
  'DerivativeLiabilitiesNoncurrent',
  'ProductWarrantyAccrualNoncurrent',
  'SelfInsuranceReserveNoncurrent',
  'AccruedLiabilitiesNoncurrent',
  'OtherAccruedLiabilitiesNoncurrent',
  'DeferredRentCreditNoncurrent',
  'LitigationReserveNoncurrent',
  'PostemploymentBenefitsLiabilityNoncurrent',
  'OtherPostretirementDefinedBenefitPlanLiabilitiesNoncurrent',
  'DeferredIncomeTaxesAndOtherLiabilitiesNoncurrent',
  'OtherSundryLiabilitiesNoncurrent',
  'OtherLiabilitiesNoncurrent',
] as const;

/** Lines of an unclassified balance sheet (no current/non-current split) that are not borrowings. */
const UNCLASSIFIED_LINES = [
  'AccountsPayableAndAccruedLiabilitiesCurrentAndNoncurrent',
  'AccountsPayableCurrentAndNoncurrent',
  'AccruedLiabilitiesCurrentAndNoncurrent',
  'EmployeeRelatedLiabilitiesCurrentAndNoncurrent',
  'OperatingLeaseLiability',
  'ContractWithCustomerLiability',
  'DeferredRevenue',
  'DeferredIncomeTaxLiabilitiesNet',
  'DeferredIncomeTaxLiabilities',
  'OtherLiabilities',
] as const;

/** A total and the lines inside it: never both in one proof (counting both would leave room for a hidden line). */
const CONTAINS: Readonly<Record<string, readonly string[]>> = {
  AccountsPayableAndAccruedLiabilitiesCurrent: [
    'AccountsPayableCurrent',
    'AccountsPayableTradeCurrent',
    'AccountsPayableRelatedPartiesCurrent',
    'AccruedLiabilitiesCurrent',
    'OtherAccruedLiabilitiesCurrent',
    'EmployeeRelatedLiabilitiesCurrent',
    'AccruedSalariesCurrent',
  ],
  AccountsPayableCurrent: ['AccountsPayableTradeCurrent', 'AccountsPayableRelatedPartiesCurrent'],
  AccruedLiabilitiesCurrent: [
    'OtherAccruedLiabilitiesCurrent',
    'AccruedSalariesCurrent',
    'AccruedEmployeeBenefitsCurrent',
    'AccruedRentCurrent',
    'AccruedProfessionalFeesCurrent',
    'AccruedInsuranceCurrent',
    'AccruedUtilitiesCurrent',
  ],
  OtherLiabilitiesCurrent: ['OtherSundryLiabilitiesCurrent'],
  OtherLiabilitiesNoncurrent: ['OtherSundryLiabilitiesNoncurrent'],
  DeferredIncomeTaxesAndOtherLiabilitiesNoncurrent: [
    'DeferredIncomeTaxLiabilitiesNet',
    'DeferredIncomeTaxLiabilities',
    'DeferredTaxLiabilitiesNoncurrent',
    'OtherLiabilitiesNoncurrent',
  ],
  EmployeeRelatedLiabilitiesCurrent: ['AccruedSalariesCurrent', 'AccruedEmployeeBenefitsCurrent'],
  TaxesPayableCurrent: ['AccruedIncomeTaxesCurrent', 'SalesAndExciseTaxPayableCurrent', 'AccrualForTaxesOtherThanIncomeTaxesCurrent'],
  DeferredIncomeTaxLiabilitiesNet: ['DeferredIncomeTaxLiabilities', 'DeferredTaxLiabilitiesNoncurrent'],
  DeferredIncomeTaxLiabilities: ['DeferredTaxLiabilitiesNoncurrent'],
  PensionAndOtherPostretirementDefinedBenefitPlansLiabilitiesNoncurrent: ['DefinedBenefitPensionPlanLiabilitiesNoncurrent'],
  OperatingLeaseLiability: ['OperatingLeaseLiabilityCurrent', 'OperatingLeaseLiabilityNoncurrent'],
  ContractWithCustomerLiability: ['ContractWithCustomerLiabilityCurrent', 'ContractWithCustomerLiabilityNoncurrent'],
  DeferredRevenue: ['DeferredRevenueCurrent', 'DeferredRevenueNoncurrent'],
};

/** Concept names that are a borrowing (or its fair value) whatever the rest of their name: reported above 0, they rule a zero out. */
const BORROWING =
  /Debt|Borrowing|NotesPayable|LineOfCredit|LinesOfCredit|CommercialPaper|LoansPayable|FinanceLease|CapitalLease|ConvertibleNotes|SeniorNotes|Debentures/;
/** …unless the name is of an asset, a rate or an unused facility (only instants are read: flows never count). */
const NOT_A_LIABILITY = /Securities|Receivable|Investment|Rate|Percent|Capacity|Commitment|Available|Unused|Gain|Loss/;

/** Most candidate lines searched for an exact sum (2^n subsets). */
const MAX_LINES = 20;

/** Instant USD facts the filing itself reports at its period end, by concept. */
function ownBalanceSheet(facts: CompanyFacts, filing: Filing): Map<string, Fact> {
  const out = new Map<string, Fact>();
  for (const concept of Object.keys(facts.facts['us-gaap'] ?? {})) {
    const fact = factsOf(facts, 'us-gaap', concept).find(
      (f) => f.start === undefined && f.accn === filing.accn && near(f.end, filing.periodEnd, 3),
    );
    if (fact) out.set(concept, fact);
  }
  return out;
}

/** The lines (by concept) among `candidates` that add up exactly to `total`, no total with a line inside it; null when none do. */
function linesSummingTo(total: number, candidates: ReadonlyArray<[string, number]>): string[] | null {
  const lines = candidates.filter(([, v]) => v !== 0);
  if (lines.length > MAX_LINES) return null;
  const chosen: string[] = [];
  const visit = (i: number, rest: number): boolean => {
    if (rest === 0) return true;
    if (i === lines.length) return false;
    const [concept, value] = lines[i]!;
    const clashes = chosen.some((c) => CONTAINS[c]?.includes(concept) || CONTAINS[concept]?.includes(c));
    if (!clashes) {
      chosen.push(concept);
      if (visit(i + 1, rest - value)) return true;
      chosen.pop();
    }
    return visit(i + 1, rest);
  };
  return visit(0, total) ? [...chosen] : null;
}

export interface DebtFreeProof {
  /** The liability lines that account for every liability, for the figure's source. */
  lines: string[];
}

/** Why debt cannot be read as zero from this balance sheet, or the lines that prove it. */
export function debtFreeProof(facts: CompanyFacts, filing: Filing): DebtFreeProof | { why: string } {
  const sheet = ownBalanceSheet(facts, filing);
  const value = (concept: string): number | undefined => sheet.get(concept)?.val;
  const borrowing = [...sheet].find(([concept, f]) => f.val > 0 && BORROWING.test(concept) && !NOT_A_LIABILITY.test(concept));
  if (borrowing) return { why: `the filing reports us-gaap:${borrowing[0]} (${borrowing[1].val.toLocaleString('en-US')}), a borrowing` };
  const pick = (names: readonly string[]): Array<[string, number]> =>
    names.filter((n) => value(n) !== undefined).map((n) => [n, value(n)!]);
  const total =
    value('Liabilities') ?? sumIfBoth(value('LiabilitiesCurrent'), value('LiabilitiesNoncurrent')) ?? liabilitiesByEquity(sheet);
  if (total === undefined) return { why: 'the filing reports no total liabilities (us-gaap:Liabilities) at its period end' };
  const current = value('LiabilitiesCurrent');
  let lines: string[] | null;
  if (current === undefined) lines = linesSummingTo(total, pick([...UNCLASSIFIED_LINES, ...CURRENT_LINES, ...NONCURRENT_LINES]));
  else {
    const currentLines = linesSummingTo(current, pick(CURRENT_LINES));
    const noncurrentLines = currentLines && linesSummingTo(total - current, pick(NONCURRENT_LINES));
    lines = currentLines && noncurrentLines ? [...currentLines, ...noncurrentLines] : null;
  }
  if (!lines)
    return {
      why: `its liability lines that are not borrowings do not add up to total liabilities of ${total.toLocaleString('en-US')}: a line may be a borrowing`,
    };
  return { lines };
}

/**
 * Total liabilities as total liabilities and equity less equity (noncontrolling interests
 * included), for a balance sheet without a liabilities total; never with temporary (mezzanine)
 * equity, which is neither.
 */
function liabilitiesByEquity(sheet: ReadonlyMap<string, Fact>): number | undefined {
  if ([...sheet].some(([concept, f]) => f.val !== 0 && /TemporaryEquity|RedeemableNoncontrollingInterest/.test(concept))) return undefined;
  const both = sheet.get('LiabilitiesAndStockholdersEquity')?.val;
  const equity =
    sheet.get('StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest')?.val ??
    (sheet.has('MinorityInterest') ? undefined : sheet.get('StockholdersEquity')?.val);
  return both === undefined || equity === undefined ? undefined : both - equity;
}

function sumIfBoth(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : a + b;
}
