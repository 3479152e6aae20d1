import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UNSCOPED_KEY_FRAMEWORKS } from '../common/grants.ts';
import type { FrameworkId, ScreeningResult } from '../engine/index.ts';
import { buildScreenReport, type SnapshotIdentity } from './screen-report.ts';
import { compressResult, STORED_FORMAT } from './serving-codec.ts';
import type { SnapshotStamp, StoredReport } from './serving-types.ts';

/**
 * The default report the serving store keeps per ticker, ready to send (docs/serving.md,
 * "Pre-rendered reports"): rendered by the nightly as it publishes, and by an API for a current
 * verdict the store has no report of this version for.
 */

/** The selection stored: a screen without `framework` from a key without a framework scope, what nearly every client sends. */
export const PRERENDERED_FRAMEWORKS: readonly FrameworkId[] = UNSCOPED_KEY_FRAMEWORKS;

export function isPrerenderedSelection(frameworks: readonly FrameworkId[]): boolean {
  return frameworks.length === PRERENDERED_FRAMEWORKS.length && frameworks.every((id, i) => id === PRERENDERED_FRAMEWORKS[i]);
}

/**
 * The sources that shape a report's bytes: a change to any of them makes stored reports stale.
 * Not the code that decides when reports are rendered: that does not change what they say.
 */
const RENDERING_SOURCES = ['./screen-report.ts', './default-report.ts', '../engine/filter-frameworks.ts', '../engine/frameworks.ts'];

function renderingDigest(): string {
  try {
    const hash = createHash('sha256');
    for (const file of RENDERING_SOURCES) hash.update(readFileSync(new URL(file, import.meta.url)));
    return hash.digest('hex').slice(0, 16);
  } catch {
    // Unreadable: a version of its own, so no stored report is ever served as this code's.
    return randomUUID();
  }
}

/**
 * The selection, the rendering code as this process loaded them and the format reports are
 * stored in: a stored report of another version (a worker or API of another release) is rendered again.
 */
export const RENDER_VERSION = `${PRERENDERED_FRAMEWORKS.join(',')} ${renderingDigest()} ${STORED_FORMAT}`;

const encoder = new TextEncoder();

/**
 * The `report` of docs/api.md as UTF-8 JSON. Bytes, not a string: the API passes them on as
 * they are, rather than copying ~25 kB strings that V8 holds at two bytes a character.
 */
export function renderReportJson(
  result: ScreeningResult,
  frameworks: readonly FrameworkId[],
  snapshot: SnapshotIdentity,
  companyName: string,
): Uint8Array {
  return encoder.encode(JSON.stringify(buildScreenReport(result, frameworks, snapshot, companyName)));
}

/** A default report as the store keeps it, from its bytes (compressed as a stored result is: it repeats the result dictionary's keys and words). */
export function storableReport(stamp: SnapshotStamp, companyName: string, json: Uint8Array): StoredReport {
  const { market, ticker, snapshotDate, screenedAt } = stamp;
  return { market, ticker, snapshotDate, screenedAt, companyName, version: RENDER_VERSION, report: compressResult(json) };
}

/** A thread's buffer the JSON of a report goes through on its way to the compressor (grown as needed): no new bytes per report. */
let scratch = Buffer.allocUnsafe(0);

/** The default report of a screen the caller holds, rendered and compressed for the store. */
export function storedDefaultReport(result: ScreeningResult, stamp: SnapshotStamp & { source: string }, companyName: string): StoredReport {
  const json = JSON.stringify(buildScreenReport(result, PRERENDERED_FRAMEWORKS, stamp, companyName));
  // A UTF-8 character takes at most three bytes per UTF-16 code unit.
  if (scratch.length < json.length * 3) scratch = Buffer.allocUnsafe(json.length * 3);
  return storableReport(stamp, companyName, scratch.subarray(0, scratch.write(json)));
}
