/** Number and month formatting for evidence messages (only used off the hot path). */

/** A ratio in 0..1 as a percentage with two decimals, e.g. 0.0512 → "5.12%". */
export function formatPercent(ratio: number): string {
  return `${(ratio * 100).toFixed(2)}%`;
}

/** Activity code as words, e.g. `adult_entertainment` → "adult entertainment". */
export function activityLabel(code: string): string {
  return code.replaceAll('_', ' ');
}

/** `YYYY-MM` months, oldest first, as runs: `2024-12 to 2025-05, 2023-03`. */
export function formatMonthRuns(months: readonly string[]): string {
  const runs: string[] = [];
  let start = 0;
  for (let i = 1; i <= months.length; i++) {
    if (i < months.length && months[i] === nextMonth(months[i - 1]!)) continue;
    runs.push(i - 1 === start ? months[start]! : `${months[start]!} to ${months[i - 1]!}`);
    start = i;
  }
  return runs.join(', ');
}

function nextMonth(month: string): string {
  const m = Number(month.slice(5, 7));
  const y = Number(month.slice(0, 4)) + (m === 12 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}`;
}
