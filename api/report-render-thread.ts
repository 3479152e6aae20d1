import type { FrameworkId, ScreeningResult } from '../engine/index.ts';
import { renderReportJson } from '../serving/default-report.ts';
import type { SnapshotIdentity } from '../serving/screen-report.ts';

/** One report to render: the stored result and what the request selected. */
export interface RenderTask {
  /** The stored result as UTF-8 JSON (decoded here, not on the event loop). */
  stored: Uint8Array;
  frameworks: readonly FrameworkId[];
  snapshot: SnapshotIdentity;
  companyName: string;
}

const decoder = new TextDecoder();

/**
 * Parses a stored result and renders the `report` (docs/api.md) as UTF-8 JSON (the CPU of a
 * cold screen). Bytes both ways: the event loop then passes buffers on.
 */
export default function renderReport(task: RenderTask): Uint8Array {
  const result = JSON.parse(decoder.decode(task.stored)) as ScreeningResult;
  return renderReportJson(result, task.frameworks, task.snapshot, task.companyName);
}
