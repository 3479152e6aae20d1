import { UNSCOPED_KEY_FRAMEWORKS } from '../common/grants.ts';
import type { FrameworkId } from '../engine/index.ts';
import type { PrerenderOption, PrerenderReport } from '../warehouse/api-reads/api-reads-results-thread.ts';
import { parseStoredResult, renderParsedReport } from './report-render-thread.ts';

/**
 * The selection sidecars pre-render (docs/api.md, "Pre-rendered reports"): a screen without
 * `framework` from a key without a framework scope of its own, what nearly every client sends.
 * Any other selection renders as before.
 */
export const PRERENDERED_FRAMEWORKS: readonly FrameworkId[] = UNSCOPED_KEY_FRAMEWORKS;

/** Whether a selection is the one sidecars pre-render. */
export function isPrerenderedSelection(frameworks: readonly FrameworkId[]): boolean {
  return frameworks.length === PRERENDERED_FRAMEWORKS.length && frameworks.every((id, i) => id === PRERENDERED_FRAMEWORKS[i]);
}

/**
 * What the API asks the sidecar builder to pre-render (`ApiReadsOptions.prerenderReports`): this
 * module, which renders with the render threads' own functions, so a pre-rendered report is
 * byte for byte the one a render gives. It names the result's own company; a request whose
 * listing names another renders (`ResultSidecars.readReport`).
 */
export const PRERENDER_REPORTS: PrerenderOption = {
  module: new URL('./report-prerender.ts', import.meta.url).href,
  selection: PRERENDERED_FRAMEWORKS.join(','),
};

const prerenderReport: PrerenderReport = (json, snapshot) => {
  const result = parseStoredResult(json);
  const report = renderParsedReport(result, { frameworks: PRERENDERED_FRAMEWORKS, snapshot, companyName: '' });
  return { report, companyName: result.company_name };
};

export default prerenderReport;
