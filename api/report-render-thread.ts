import type { FrameworkId, ScreeningResult } from '../engine/index.ts';
import { sidecarRowBytes, type SidecarRow } from '../warehouse/api-reads/api-reads-sidecar-row.ts';
import { storedResultBytes, type StoredResult } from '../warehouse/api-reads/api-reads-stored-result.ts';
import { buildScreenReport, type SnapshotIdentity } from './use-cases/screen-report.ts';

/** One report to render: the stored result and what the request selected. */
export interface RenderTask {
  /**
   * The stored result (from a sidecar still deflated: inflated and decoded here, not on the event
   * loop), or where it sits in a sidecar (read here too).
   */
  stored: StoredResult | SidecarRow;
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
 * re-encoding them for the socket. Null when the task names a sidecar row that is gone (the
 * caller reads the result another way).
 */
export default function renderReport(task: RenderTask): Uint8Array | null {
  const bytes = 'path' in task.stored ? sidecarRowBytes(task.stored) : storedResultBytes(task.stored);
  return bytes === null ? null : renderParsedReport(parseStoredResult(bytes), task);
}

/** A stored result's UTF-8 JSON, parsed. */
export function parseStoredResult(bytes: Uint8Array): ScreeningResult {
  return JSON.parse(decoder.decode(bytes)) as ScreeningResult;
}

/** The report of a parsed result as UTF-8 JSON. */
export function renderParsedReport(result: ScreeningResult, task: Omit<RenderTask, 'stored'>): Uint8Array {
  return encoder.encode(JSON.stringify(buildScreenReport(result, task.frameworks, task.snapshot, task.companyName)));
}
