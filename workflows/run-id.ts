/** Makes a workflow id usable in lake file names: `nightly-2026-11-21T02:00:00Z` → `nightly-2026-11-21T02-00-00Z`. */
export function runIdFrom(workflowId: string): string {
  return workflowId.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 120);
}
