import { applyCustomScreen } from '../../engine/custom-screen/apply-custom-screen.ts';
import type { CustomFrameworkResult } from '../../engine/custom-screen/custom-screen-types.ts';
import { decidingReasons, type ScreeningResult } from '../../engine/index.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';
import type { ScreenService } from '../screen-service.ts';
import type { Exposure, Verdicts } from './portfolio-exposures.ts';
import type { AppliedScreen } from './screen-custom.ts';
import { loadResults } from './screen-ticker.ts';
import { reasonsKept } from './snapshot-as-of.ts';

/**
 * A custom screen's verdicts on every company of a portfolio, held directly or through a fund:
 * each snapshot's stored result read (into `results`, shared with the rest of the answer) and the
 * layer applied under `applied`'s version, as an ETF screen does (docs/custom-screens.md).
 */
export async function customVerdicts(
  service: ScreenService,
  applied: AppliedScreen,
  exposures: readonly Exposure[],
  results: Map<VerdictRow, ScreeningResult>,
): Promise<Verdicts> {
  const rows = [...new Set(exposures.flatMap((e) => (e.row ? [e.row] : [])))].filter((row) => !results.has(row));
  (await loadResults(service, rows)).forEach((result, i) => results.set(rows[i]!, result));
  const judged = new Map<VerdictRow, CustomFrameworkResult>();
  const verdictOf = (row: VerdictRow): CustomFrameworkResult | undefined => {
    const result = results.get(row);
    if (result === undefined) return undefined;
    let verdict = judged.get(row);
    if (verdict === undefined) {
      const ticker = `${row.market}/${row.ticker}`;
      verdict = applyCustomScreen(result, applied.base, applied.slug, applied.version, ticker, reasonsKept(row));
      judged.set(row, verdict);
    }
    return verdict;
  };
  return {
    status: (row) => verdictOf(row)?.status,
    deciding: (row) => {
      const verdict = verdictOf(row);
      return verdict ? decidingReasons(verdict.status, verdict.reasons) : [];
    },
  };
}
