/**
 * Status changes between two consecutive screens of one security (docs/api.md, "Status
 * timeline"). Pure: the timeline endpoint walks a ticker's history with it, and anything that
 * reacts to a newly published screen (a notification, a webhook) compares the screen with the
 * one before it the same way.
 */
import { FRAMEWORK_IDS, type FrameworkId } from './frameworks.ts';
import type { VerdictStatus } from './result-types.ts';

/** One framework whose status differs between the earlier and the later screen. */
export interface StatusChange {
  framework: FrameworkId;
  from: VerdictStatus;
  to: VerdictStatus;
}

/** Statuses of one screen by framework; a framework the screen did not return is absent. */
export type ScreenStatuses = Partial<Readonly<Record<FrameworkId, VerdictStatus>>>;

/**
 * The frameworks (of `frameworks`, in that order) whose status differs from `before` to
 * `after`. A framework missing from either screen has no known change and is left out: a
 * screen that did not return a framework says nothing about its status.
 */
export function statusChanges(
  before: ScreenStatuses,
  after: ScreenStatuses,
  frameworks: readonly FrameworkId[] = FRAMEWORK_IDS,
): StatusChange[] {
  const changes: StatusChange[] = [];
  for (const framework of frameworks) {
    const from = before[framework];
    const to = after[framework];
    if (from !== undefined && to !== undefined && from !== to) changes.push({ framework, from, to });
  }
  return changes;
}
