/**
 * When a ratio's figure stands in for the one a methodology names, and how much of it is
 * certain (docs/frameworks/README.md, "Proxies and estimates"). A breach computed on a proxy is
 * in doubt unless the certain part of the figure breaches on its own.
 */
import { ESTIMATED_PURIFICATION_TEXT, restsOnEstimate } from './estimates.ts';
import type { Fraction } from './exact.ts';
import type { Fundamentals } from './inputs.ts';
import type { ProxyKind } from './threshold-check.ts';

/**
 * Debt totals a filer reports without a current/non-current split (docs/data/sources.md,
 * `total_debt`): only a total is known, which may hold notes that bear no interest.
 */
export const TOTAL_ONLY_DEBT_CONCEPTS: ReadonlySet<string> = new Set([
  'DebtAndCapitalLeaseObligations',
  'LongTermDebt',
  'DebtLongtermAndShorttermCombinedAmount',
  'NotesPayable',
  'DebtInstrumentCarryingAmount',
]);

const CONCEPT = /[a-z-]+:([A-Za-z]+)/g;

/** The concept names a recorded figure source cites (the part before its ` @ ` accession), none when unrecorded. */
function citedConcepts(source: string | undefined): string[] {
  if (source === undefined) return [];
  const concepts = source.slice(0, source.includes(' @ ') ? source.indexOf(' @ ') : source.length);
  return [...concepts.matchAll(CONCEPT)].map((m) => m[1]!);
}

/** True when the recorded source of `total_debt` is a debt total alone (no borrowing lines by maturity). */
export function debtIsTotalOnly(f: Fundamentals | null): boolean {
  return citedConcepts(f?.figureSources?.total_debt).some((concept) => TOTAL_ONLY_DEBT_CONCEPTS.has(concept));
}

/**
 * Net non-operating income concepts a filer that shows interest income nowhere else may report
 * (docs/data/sources.md, "edgar"). Standing in for interest income they are no bound either way:
 * other gains and losses are netted in them, so neither a pass nor a breach they give is certain.
 */
export const NON_OPERATING_INCOME_CONCEPTS: readonly string[] = Object.freeze([
  // Investment income outside operations: interest and dividends with gains and losses on investments.
  'InvestmentIncomeNonoperating',
  'OtherNonoperatingIncomeExpense',
  'NonoperatingIncomeExpense',
]);

/** True when the recorded source of `interest_income` is a net non-operating income concept. */
export function interestIsNonOperatingProxy(f: Fundamentals | null): boolean {
  return citedConcepts(f?.figureSources?.interest_income).some((concept) => NON_OPERATING_INCOME_CONCEPTS.includes(concept));
}

export const NON_OPERATING_PROXY_TEXT =
  'interest income is not reported apart; net non-operating income stands in for it, which nets other gains and losses ' +
  'and so bounds interest income neither from above nor from below';

/** Why a purification amount that counts a net non-operating line as interest income is an estimate. */
export const NON_OPERATING_PURIFICATION_TEXT = `an estimate: ${NON_OPERATING_PROXY_TEXT}, so the amount may be too low as well as too high`;

/** The `proxy` note of a purification computed from `f`, if any of its figures is a stand-in or an estimate (engine/estimates.ts). */
export function purificationProxy(f: Fundamentals | null): { proxy: string } | Record<string, never> {
  if (interestIsNonOperatingProxy(f)) return { proxy: NON_OPERATING_PURIFICATION_TEXT };
  return restsOnEstimate(f, ['interest_income', 'total_revenue']) ? { proxy: ESTIMATED_PURIFICATION_TEXT } : {};
}

/** What the proxy stands for, for messages. */
export const PROXY_TEXT: Readonly<Record<ProxyKind, string>> = Object.freeze({
  debt_total_for_interest_bearing: 'the filing reports only a debt total, which stands in for interest-bearing debt',
  cash_for_interest_bearing_deposits: 'cash and equivalents, some of which bear no interest, stand in for interest-bearing deposits',
});

/**
 * The certain part of a proxied ratio: the part of the figure that is surely the named one, as
 * a fraction of the same denominator; null when nothing is certain (the whole figure is a proxy)
 * or the figure is not a proxy here (`undefined`).
 */
export function certainPart(kind: ProxyKind, f: Fundamentals | null, fraction: Fraction): Fraction | null | undefined {
  switch (kind) {
    case 'debt_total_for_interest_bearing':
      return debtIsTotalOnly(f) ? null : undefined;
    case 'cash_for_interest_bearing_deposits': {
      // The ratio's numerator is cash + interest-bearing investments; the investments are certain.
      const securities = fraction.numerator[1];
      return securities === undefined ? null : { numerator: [securities], denominator: fraction.denominator };
    }
  }
}
