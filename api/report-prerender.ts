import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UNSCOPED_KEY_FRAMEWORKS } from '../common/grants.ts';
import type { FrameworkId } from '../engine/index.ts';
import type { PrerenderOption, PrerenderReport } from '../warehouse/api-reads/api-reads-sidecar-build.ts';
import { parseStoredResult, renderParsedReport } from './report-render-thread.ts';

/**
 * The selection sidecars pre-render (docs/serving.md, "Pre-rendered reports"): a screen without
 * `framework` from a key without a framework scope of its own, what nearly every client sends.
 * Any other selection renders as before.
 */
export const PRERENDERED_FRAMEWORKS: readonly FrameworkId[] = UNSCOPED_KEY_FRAMEWORKS;

/** Whether a selection is the one sidecars pre-render. */
export function isPrerenderedSelection(frameworks: readonly FrameworkId[]): boolean {
  return frameworks.length === PRERENDERED_FRAMEWORKS.length && frameworks.every((id, i) => id === PRERENDERED_FRAMEWORKS[i]);
}

/** The sources that shape a report's bytes: a change to any of them makes the sidecars pre-render again. */
const RENDERING_SOURCES = [
  './use-cases/screen-report.ts',
  './report-render-thread.ts',
  './report-prerender.ts',
  '../engine/filter-frameworks.ts',
  // What those import that shapes the bytes: the frameworks' order, and how a stored result is decoded.
  '../engine/frameworks.ts',
  '../warehouse/api-reads/api-reads-stored-result.ts',
  // How the sidecar builder writes the snapshot's identity (day, screened-at, source) for the report.
  '../warehouse/api-reads/api-reads-store.ts',
  '../warehouse/api-reads/api-reads-sidecar-build.ts',
];

/** A digest of the rendering sources; unreadable, a fresh value (the sidecars are then rebuilt: never a stale report). */
function renderingDigest(): string {
  try {
    const hash = createHash('sha256');
    for (const file of RENDERING_SOURCES) hash.update(readFileSync(new URL(file, import.meta.url)));
    return hash.digest('hex').slice(0, 16);
  } catch {
    return randomUUID();
  }
}

/**
 * The selection and the rendering code, as this module was loaded: computed once per load, so
 * in the API once at its start, whatever a deploy in place changes on disk later. A sidecar
 * builder process loads this module again and compares (`PrerenderOption`).
 */
export const loadedVersion = `${PRERENDERED_FRAMEWORKS.join(',')} ${renderingDigest()}`;

/**
 * What the API asks the sidecar builder to pre-render (`ApiReadsOptions.prerenderReports`): this
 * module, which renders with the render threads' own functions, so a pre-rendered report is
 * byte for byte the one a render gives. It names the result's own company; a request whose
 * listing names another renders (`ResultSidecars.readReport`). The version names the selection
 * and the rendering code, so a deploy that changes how reports render rebuilds the sidecars.
 */
export const PRERENDER_REPORTS: PrerenderOption = {
  module: new URL('./report-prerender.ts', import.meta.url).href,
  version: loadedVersion,
};

const prerenderReport: PrerenderReport = (json, snapshot) => {
  const result = parseStoredResult(json);
  const report = renderParsedReport(result, { frameworks: PRERENDERED_FRAMEWORKS, snapshot, companyName: '' });
  return { report, companyName: result.company_name };
};

export default prerenderReport;
