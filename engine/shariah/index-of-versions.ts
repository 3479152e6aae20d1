/** The five Shariah methodologies' effective-dated tables, keyed by framework id. */
import type { ShariahFrameworkId } from '../frameworks.ts';
import { AAOIFI_VERSIONS } from './aaoifi.ts';
import { DJIM_VERSIONS } from './djim.ts';
import { FTSE_VERSIONS } from './ftse.ts';
import { MSCI_VERSIONS } from './msci.ts';
import type { ShariahConcept, ShariahVersion } from './rule-types.ts';
import { SP_VERSIONS } from './sp.ts';
import { activityIndex } from '../exposures.ts';
import type { ActivityCode } from '../inputs.ts';

export const SHARIAH_VERSIONS: Readonly<Record<ShariahFrameworkId, readonly ShariahVersion[]>> = Object.freeze({
  shariah_aaoifi: AAOIFI_VERSIONS,
  shariah_djim: DJIM_VERSIONS,
  shariah_sp: SP_VERSIONS,
  shariah_ftse: FTSE_VERSIONS,
  shariah_msci: MSCI_VERSIONS,
});

const allVersions = Object.values(SHARIAH_VERSIONS).flat();

/** Every activity any Shariah methodology prohibits (the broadest purification basis). */
export const SHARIAH_PROHIBITED_UNION: readonly ActivityCode[] = [...new Set(allVersions.flatMap((v) => v.prohibited))];
export const SHARIAH_PROHIBITED_UNION_IDX: readonly number[] = SHARIAH_PROHIBITED_UNION.map(activityIndex);

/** Rule code → screen concept, for explaining where methodologies disagree. */
export const CONCEPT_BY_CODE: ReadonlyMap<string, ShariahConcept> = new Map(
  allVersions.flatMap((v): [string, ShariahConcept][] => [
    ...v.ratioRules.map((r): [string, ShariahConcept] => [r.rule.code, r.concept]),
    [v.income.rule.code, 'income'],
  ]),
);
