import type { FrameworkId, ScreeningResult } from '../engine/index.ts';
import { buildScreenReport, type SnapshotIdentity } from './use-cases/screen-report.ts';

/** One report to render: the stored result and what the request selected. */
export interface RenderTask {
  /** The stored result's JSON, as text or as UTF-8 bytes (a sidecar read: decoded here, not on the event loop). */
  resultJson: string | Uint8Array;
  frameworks: readonly FrameworkId[];
  snapshot: SnapshotIdentity;
  companyName: string;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * Parses a stored result and renders the `report` (docs/api.md) as UTF-8 JSON (the CPU of a
 * cold screen). Bytes both ways: the event loop then passes buffers on, rather than copying
 * ~25 kB strings that V8 holds at two bytes a character (reasons carry `≤`, `—`) and
 * re-encoding them for the socket.
 */
export default function renderReport(task: RenderTask): Uint8Array {
  const text = typeof task.resultJson === 'string' ? task.resultJson : decoder.decode(task.resultJson);
  const result = JSON.parse(text) as ScreeningResult;
  return encoder.encode(JSON.stringify(buildScreenReport(result, task.frameworks, task.snapshot, task.companyName)));
}
