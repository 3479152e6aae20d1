export { screenCompany } from './screen-company.ts';
export { filterFrameworks } from './filter-frameworks.ts';
export {
  FRAMEWORK_IDS,
  FRAMEWORKS,
  SHARIAH_FRAMEWORK_IDS,
  isFrameworkId,
  isShariahFrameworkId,
  type FrameworkId,
  type FrameworkInfo,
  type ShariahFrameworkId,
} from './frameworks.ts';
export { ENGINE_VERSION, ENGINE_REVISION_DATE, eraFor, type Era } from './version.ts';
export { STALENESS_LIMITS } from './input-quality.ts';
export { STATUS_RANK, decidingReasons, isImprovement } from './status.ts';
export { statusChanges, type ScreenStatuses, type StatusChange } from './status-changes.ts';
export { CONSENSUS_WEIGHTS } from './consensus.ts';
export { ACTIVITY_CODES, INVOLVEMENTS } from './inputs.ts';
export { DOUBTS } from './result-types.ts';
export type * from './inputs.ts';
export type * from './result-types.ts';
