import type { FrameworkId, ScreeningResult } from '../engine/index.ts';
import { buildScreenReport, type SnapshotIdentity } from './use-cases/screen-report.ts';

/** One report to render: the stored result as JSON text and what the request selected. */
export interface RenderTask {
  resultJson: string;
  frameworks: readonly FrameworkId[];
  snapshot: SnapshotIdentity;
  companyName: string;
}

/** Parses a stored result and renders the `report` (docs/api.md) as JSON text (the CPU of a cold screen). */
export default function renderReport(task: RenderTask): string {
  const result = JSON.parse(task.resultJson) as ScreeningResult;
  return JSON.stringify(buildScreenReport(result, task.frameworks, task.snapshot, task.companyName));
}
