/** Number formatting for evidence messages (only used off the hot path). */

/** A ratio in 0..1 as a percentage with two decimals, e.g. 0.0512 → "5.12%". */
export function formatPercent(ratio: number): string {
  return `${(ratio * 100).toFixed(2)}%`;
}

/** Activity code as words, e.g. `adult_entertainment` → "adult entertainment". */
export function activityLabel(code: string): string {
  return code.replaceAll('_', ' ');
}
