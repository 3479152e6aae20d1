import { FRAMEWORK_IDS } from '../engine/index.ts';
import type { PrerenderReport } from '../warehouse/api-reads/api-reads-results-thread.ts';
import { parseStoredResult, renderParsedReport } from './report-render-thread.ts';
import type { FrameworkId } from '../engine/index.ts';

/**
 * The selection a sidecar pre-renders: a screen without `framework` from a key that may see
 * every framework (docs/api.md, "Pre-rendered reports"). Any other selection renders as before.
 */
export const PRERENDERED_FRAMEWORKS: readonly FrameworkId[] = FRAMEWORK_IDS;

/** Whether a selection is the one sidecars pre-render. */
export function isPrerenderedSelection(frameworks: readonly FrameworkId[]): boolean {
  return frameworks.length === PRERENDERED_FRAMEWORKS.length && frameworks.every((id, i) => id === PRERENDERED_FRAMEWORKS[i]);
}

/**
 * The module the sidecar builder thread loads (`ApiReadsOptions.prerenderReports`): it renders
 * with the render threads' own functions, so a pre-rendered report is byte for byte the one a
 * render gives. It names the result's own company; a request whose listing names another
 * renders (`ResultSidecars.readReport`).
 */
export const PRERENDER_MODULE = new URL('./report-prerender.ts', import.meta.url).href;

const prerenderReport: PrerenderReport = (json, snapshot) => {
  const result = parseStoredResult(json);
  return {
    report: renderParsedReport(result, { frameworks: PRERENDERED_FRAMEWORKS, snapshot, companyName: '' }),
    companyName: result.company_name,
  };
};

export default prerenderReport;
