import { explainDisagreements } from '../../engine/explain/disagreements.ts';
import type { FrameworkId, FrameworkResult } from '../../engine/index.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';
import type { ScreenService } from '../screen-service.ts';
import { SYNTHETIC_NOTICE } from '../../serving/screen-report.ts';
import { reasonsKept, snapshotRowAsOf } from './snapshot-as-of.ts';
import { loadResult, serveScreen } from './screen-ticker.ts';

export interface ExplainRequest {
  market: string;
  ticker: string;
  /** The frameworks the client may see (and asked for). */
  frameworks: readonly FrameworkId[];
  /** `YYYY-MM-DD` already checked; absent for the current snapshot. */
  asOf?: string;
}

/**
 * Why the frameworks disagree on one company: the current snapshot (served as the screen
 * endpoint serves it, never re-screened here) or the one in force on `asOf`, read with its
 * reasons and compared pair by pair (docs/frameworks/README.md, "Why frameworks disagree").
 * 404 when the ticker is unknown or has no snapshot then.
 */
export async function explainScreen(service: ScreenService, request: ExplainRequest): Promise<Record<string, unknown>> {
  const { market, ticker } = request;
  let row: VerdictRow;
  let companyName = '';
  if (request.asOf === undefined) {
    const outcome = await serveScreen(service, { market, ticker, forceRefresh: false });
    row = outcome.row;
    companyName = outcome.companyName;
  } else {
    row = await snapshotRowAsOf(service, market, ticker, request.asOf);
    companyName = service.reads.listing(market, ticker)?.name ?? '';
  }
  const result = await loadResult(service, row);
  const frameworks: Partial<Record<FrameworkId, FrameworkResult>> = {};
  for (const id of request.frameworks) if (result.frameworks[id] !== undefined) frameworks[id] = result.frameworks[id];
  const kept = reasonsKept(row);
  const explanation = explainDisagreements({ frameworks, ratios: result.ratios, reasonsKept: kept });
  return {
    market,
    ticker,
    company_name: companyName || result.company_name,
    as_of: request.asOf ?? null,
    snapshot_date: row.snapshotDate,
    reasons_kept: kept,
    statuses: Object.fromEntries(Object.entries(frameworks).map(([id, r]) => [id, r.status])),
    disagreements: explanation.disagreements,
    near_limit_agreements: explanation.near_limit_agreements,
    provenance: {
      data_source: row.dataSource,
      synthetic: row.synthetic,
      ...(row.synthetic ? { notice: SYNTHETIC_NOTICE } : {}),
      filing: result.provenance.filing,
    },
  };
}
