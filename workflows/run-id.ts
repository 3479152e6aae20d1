/** Makes a workflow id usable in lake file names: `nightly-2026-11-21T02:00:00Z` → `nightly-2026-11-21T02-00-00Z`. */
export function runIdFrom(workflowId: string): string {
  return workflowId.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 120);
}

/** The UTC calendar date of a workflow-clock timestamp, `YYYY-MM-DD`. */
export function utcDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}
