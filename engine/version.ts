/** Engine identity: every result names the engine that produced it. */

/** Semantic version of the screening engine (rule tables + evaluation code). */
export const ENGINE_VERSION = '3.1.0';

/** The engine revision date (`YYYY-MM-DD`): snapshots from this date on are era `current`. */
export const ENGINE_REVISION_DATE = '2026-07-04';

export type Era = 'legacy' | 'current';

/** Era of a snapshot dated `date` (`YYYY-MM-DD`): `legacy` before 2026-07-04, `current` from then. */
export function eraFor(date: string): Era {
  // ISO dates compare correctly as strings.
  return date < ENGINE_REVISION_DATE ? 'legacy' : 'current';
}
