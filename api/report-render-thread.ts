import type { FrameworkId, ScreeningResult } from '../engine/index.ts';
import { buildScreenReport, type SnapshotIdentity } from './use-cases/screen-report.ts';

/** One report to render: the stored result and what the request selected. */
export interface RenderTask {
  /** The stored result as UTF-8 JSON (decoded here, not on the event loop). */
  stored: Uint8Array;
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
  return renderParsedReport(parseStoredResult(task.stored), task);
}

/** A stored result's UTF-8 JSON, parsed. */
export function parseStoredResult(bytes: Uint8Array): ScreeningResult {
  return JSON.parse(decoder.decode(bytes)) as ScreeningResult;
}

/** The report of a parsed result as UTF-8 JSON. */
export function renderParsedReport(result: ScreeningResult, task: Omit<RenderTask, 'stored'>): Uint8Array {
  return encoder.encode(JSON.stringify(buildScreenReport(result, task.frameworks, task.snapshot, task.companyName)));
}
