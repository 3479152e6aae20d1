/**
 * `madhhab_views`: the five Shariah methodologies read side by side. Despite the field's name
 * (docs/frameworks/README.md) these are index-provider and standard-setter methodologies, not the four
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
  'Views across the five Shariah screening methodologies (AAOIFI, DJIM, S&P, FTSE, MSCI), not the four schools of law: strict = all ' +
  'five must pass; majority = the status at least three share; lenient = the most favourable.';

// Worst-first ordering of check outcomes within one concept.
const OUTCOME_RANK: Record<CheckResult, number> = { fail: 0, insufficient_data: 1, questionable: 2, pass: 3, info: 4 };

// Code → concept position (-1: no concept), memoised: the set of codes is small and fixed.
const conceptCache = new Map<string, number>();

function conceptIndex(code: string): number {
  let i = conceptCache.get(code);
  if (i === undefined) {
    const concept = code.includes('.business.') ? 'business' : CONCEPT_BY_CODE.get(code);
    i = concept === undefined ? -1 : CONCEPTS.indexOf(concept);
    conceptCache.set(code, i);
  }
  return i;
}

function disagreements(results: Record<ShariahFrameworkId, FrameworkResult>): MadhhabDisagreement[] {
  // worst[f * CONCEPTS.length + c]: worst outcome rank of framework f on concept c (-1 = none).
  const n = CONCEPTS.length;
  const worst = new Int8Array(SHARIAH_FRAMEWORK_IDS.length * n).fill(-1);
  SHARIAH_FRAMEWORK_IDS.forEach((id, f) => {
    for (const r of results[id].reasons) {
      if (r.result === 'info') continue;
      const c = conceptIndex(r.code);
      if (c < 0) continue;
      const rank = OUTCOME_RANK[r.result];
      const at = f * n + c;
      if (worst[at] === -1 || rank < worst[at]!) worst[at] = rank;
    }
  });
  const out: MadhhabDisagreement[] = [];
  for (let c = 0; c < n; c++) {
    let seen = 0;
    for (let f = 0; f < SHARIAH_FRAMEWORK_IDS.length; f++) {
      const w = worst[f * n + c]!;
      if (w === OUTCOME_RANK.pass) seen |= 1;
      else if (w === OUTCOME_RANK.questionable) seen |= 2;
      else if (w === OUTCOME_RANK.fail) seen |= 4;
    }
    if (seen === 1 || seen === 2 || seen === 4 || seen === 0) continue;
    const d: MadhhabDisagreement = { concept: CONCEPTS[c]!, passing: [], questionable: [], failing: [], not_assessed: [] };
    SHARIAH_FRAMEWORK_IDS.forEach((id, f) => {
      const w = worst[f * n + c]!;
      if (w === OUTCOME_RANK.pass) d.passing.push(id);
      else if (w === OUTCOME_RANK.questionable) d.questionable.push(id);
      else if (w === OUTCOME_RANK.fail) d.failing.push(id);
      else d.not_assessed.push(id);
    });
    out.push(d);
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
