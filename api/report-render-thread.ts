import type { FrameworkId, ScreeningResult } from '../engine/index.ts';
import { storedResultBytes, type StoredResult } from '../warehouse/api-reads/api-reads-stored-result.ts';
import { buildScreenReport, type SnapshotIdentity } from './use-cases/screen-report.ts';

/** One report to render: the stored result and what the request selected. */
export interface RenderTask {
  /** The stored result (from a sidecar still deflated: inflated and decoded here, not on the event loop). */
  stored: StoredResult;
  frameworks: readonly FrameworkId[];
  snapshot: SnapshotIdentity;
  companyName: string;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * Parses a stored result and renders the `report` (docs/api.md) as UTF-8 JSON (the CPU of a
 * cold screen). Bytes both ways: the event loop then passes ~1 kB deflated rows and buffers on, rather than copying
 * ~25 kB strings that V8 holds at two bytes a character (reasons carry `≤`, `—`) and
 * re-encoding them for the socket.
 */
export default function renderReport(task: RenderTask): Uint8Array {
  const result = JSON.parse(decoder.decode(storedResultBytes(task.stored))) as ScreeningResult;
  return encoder.encode(JSON.stringify(buildScreenReport(result, task.frameworks, task.snapshot, task.companyName)));
}
