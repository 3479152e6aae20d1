import { filterFrameworks, type FrameworkId, type ScreeningResult } from '../engine/index.ts';

/** Plain-words notice carried by every report built from the synthetic sample universe. */
export const SYNTHETIC_NOTICE =
  "Synthetic sample data: these figures come from faithscreen's generated sample universe, not from any real company's filings or " +
  'prices. Do not use these verdicts for investment or religious decisions.';

/** The snapshot a report was built from. */
export interface SnapshotIdentity {
  snapshotDate: string;
  screenedAt: string;
  source: string;
}

export type ScreenReport = Record<string, unknown> & {
  ticker: string;
  company_name: string;
  financial_data: Record<string, unknown>;
  frameworks_returned: FrameworkId[];
};

/**
 * The `report` of docs/api.md: one engine FrameworkResult per returned framework (status, score,
 * methodology, structured `reasons`, purification; consensus adds components and coverage),
 * the inputs under `financial_data`, and `madhhab_views` only when a shariah_* id is returned.
 */
export function buildScreenReport(
  full: ScreeningResult,
  frameworks: readonly FrameworkId[],
  snapshot: SnapshotIdentity,
  companyName: string,
): ScreenReport {
  const result = filterFrameworks(full, frameworks);
  // Key order as in docs/api.md: ticker, company_name, one object per framework, financial_data, frameworks_returned.
  const report: Record<string, unknown> = { ticker: result.ticker, company_name: companyName || result.company_name };
  for (const id of result.frameworks_returned) report[id] = result.frameworks[id];
  report.financial_data = financialData(result, snapshot);
  report.frameworks_returned = result.frameworks_returned;
  if (result.madhhab_views !== undefined) report.madhhab_views = result.madhhab_views;
  return report as ScreenReport;
}

function financialData(result: ScreeningResult, snapshot: SnapshotIdentity): Record<string, unknown> {
  const { provenance } = result;
  return {
    market_cap: result.market_cap.spot,
    market_cap_avg_24m: result.market_cap.avg_24m,
    market_cap_avg_36m: result.market_cap.avg_36m,
    currency: result.market_cap.currency,
    ratios: result.ratios,
    purification_per_share: result.purification_per_share,
    purification: result.purification,
    filing: provenance.filing,
    data_quality: result.data_quality,
    provenance: {
      ...provenance,
      ...(provenance.synthetic ? { notice: SYNTHETIC_NOTICE } : {}),
      screening_date: result.screening_date,
      engine_version: result.engine_version,
      engine_revision_date: result.engine_revision_date,
      era: result.era,
      snapshot_date: snapshot.snapshotDate,
      screened_at: snapshot.screenedAt,
      snapshot_source: snapshot.source,
    },
  };
}
