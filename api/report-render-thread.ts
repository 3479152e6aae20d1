import type { FrameworkId, ScreeningResult } from '../engine/index.ts';
import { renderReportJson } from '../serving/default-report.ts';
import type { SnapshotIdentity } from '../serving/screen-report.ts';
import type { StoredResultKey } from '../serving/serving-types.ts';
import { readStoredResultJson } from './stored-result-reader.ts';

/** One report to render: its stored result (or where to read it) and what the request selected. */
export type RenderTask = RenderSelection & ResultSource;

/** Where a render finds its stored result. */
export type ResultSource =
  | {
      /** The stored result as UTF-8 JSON (decoded here, not on the event loop). */
      stored: Uint8Array;
    }
  | {
      /** Where the thread reads the stored result itself (the SQLite store). */
      read: StoredResultKey;
    };

export interface RenderSelection {
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
  const json = 'stored' in task ? decoder.decode(task.stored) : readStoredResultJson(task.read);
  return renderReportJson(JSON.parse(json) as ScreeningResult, task.frameworks, task.snapshot, task.companyName);
}
