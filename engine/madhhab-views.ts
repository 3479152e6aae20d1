/**
 * `madhhab_views`: the five Shariah methodologies read side by side. Despite the field's name
 * (from the spec) these are index-provider and standard-setter methodologies, not the four
 * Sunni schools of law; the structure shows the strict view (all five pass), the majority
 * view, the lenient view, and per screen concept which methodologies disagree.
 */
import { SHARIAH_FRAMEWORK_IDS, type ShariahFrameworkId } from './frameworks.ts';
import type { CheckResult, FrameworkResult, MadhhabDisagreement, MadhhabViews, VerdictStatus } from './result-types.ts';
import { CONCEPT_BY_CODE } from './shariah/index-of-versions.ts';
import type { ShariahConcept } from './shariah/rule-types.ts';
import { STATUS_RANK } from './status.ts';

const CONCEPTS: readonly ShariahConcept[] = ['business', 'debt', 'cash', 'receivables', 'liquidity', 'income'];
const NOTE =
  'Views across the five Shariah screening methodologies (AAOIFI, DJIM, S&P, FTSE, MSCI), not the four schools of law: strict = all five must pass; majority = the status at least three share; lenient = the most favourable.';

// Worst-first ordering of check outcomes within one concept.
const OUTCOME_RANK: Record<CheckResult, number> = { fail: 0, insufficient_data: 1, questionable: 2, pass: 3, info: 4 };

function conceptOf(code: string): ShariahConcept | undefined {
  if (code.includes('.business.')) return 'business';
  return CONCEPT_BY_CODE.get(code);
}

function disagreements(results: Record<ShariahFrameworkId, FrameworkResult>): MadhhabDisagreement[] {
  const out: MadhhabDisagreement[] = [];
  for (const concept of CONCEPTS) {
    const d: MadhhabDisagreement = { concept, passing: [], questionable: [], failing: [], not_assessed: [] };
    for (const id of SHARIAH_FRAMEWORK_IDS) {
      let worst: CheckResult | null = null;
      for (const r of results[id].reasons) {
        if (r.result === 'info' || conceptOf(r.code) !== concept) continue;
        if (worst === null || OUTCOME_RANK[r.result] < OUTCOME_RANK[worst]) worst = r.result;
      }
      if (worst === 'pass') d.passing.push(id);
      else if (worst === 'questionable') d.questionable.push(id);
      else if (worst === 'fail') d.failing.push(id);
      else d.not_assessed.push(id);
    }
    const kinds = (d.passing.length > 0 ? 1 : 0) + (d.questionable.length > 0 ? 1 : 0) + (d.failing.length > 0 ? 1 : 0);
    if (kinds > 1) out.push(d);
  }
  return out;
}

/** Derive the views from the five Shariah results. */
export function deriveMadhhabViews(results: Record<ShariahFrameworkId, FrameworkResult>): MadhhabViews {
  const counts: Record<VerdictStatus, number> = { compliant: 0, non_compliant: 0, questionable: 0, insufficient_data: 0 };
  let strict: VerdictStatus = 'compliant';
  let lenient: VerdictStatus = 'non_compliant';
  const byFramework = {} as Record<ShariahFrameworkId, VerdictStatus>;
  for (const id of SHARIAH_FRAMEWORK_IDS) {
    const s = results[id].status;
    byFramework[id] = s;
    counts[s] += 1;
    if (STATUS_RANK[s] < STATUS_RANK[strict]) strict = s;
    if (STATUS_RANK[s] > STATUS_RANK[lenient]) lenient = s;
  }
  let majority: VerdictStatus = 'questionable';
  let top = 0;
  for (const s of Object.keys(counts) as VerdictStatus[]) {
    if (counts[s] > top) top = counts[s];
    if (counts[s] >= 3) majority = s;
  }
  return {
    strict,
    majority,
    lenient,
    agreement: top === SHARIAH_FRAMEWORK_IDS.length ? 'unanimous' : top >= 3 ? 'majority' : 'split',
    counts,
    by_framework: byFramework,
    disagreements: disagreements(results),
    note: NOTE,
  };
}
