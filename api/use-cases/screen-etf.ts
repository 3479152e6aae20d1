import type { FrameworkId, VerdictStatus } from '../../engine/index.ts';
import { notFound } from '../../common/app-error.ts';
import type { ScreenService } from '../screen-service.ts';

export interface EtfRequest {
  etfTicker: string;
  market: string;
  maxHoldings: number;
  frameworks: readonly FrameworkId[];
}

interface FrameworkStats {
  pass: number;
  fail: number;
  questionable: number;
  unknown: number;
  pass_weight: number;
  fail_weight: number;
  questionable_weight: number;
  unknown_weight: number;
}

const BUCKET: Record<VerdictStatus, 'pass' | 'fail' | 'questionable' | 'unknown'> = {
  compliant: 'pass',
  non_compliant: 'fail',
  questionable: 'questionable',
  insufficient_data: 'unknown',
};

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * A fund's top holdings by weight from its latest holdings report, each with its current
 * verdicts (cached snapshots; a fund screen never triggers re-screens), and per framework the
 * count and fund-weight share of pass / fail / questionable / unknown holdings. A holding never
 * screened counts as unknown with `verdicts: null`.
 */
export async function screenEtf(service: ScreenService, request: EtfRequest): Promise<Record<string, unknown>> {
  const fund = await service.reads.fundHoldings(request.market, request.etfTicker, request.maxHoldings);
  if (!fund) throw notFound(`no fund '${request.etfTicker}' with holdings in market '${request.market}'`, 'fund_not_found');
  const stats = Object.fromEntries(
    request.frameworks.map((id) => [
      id,
      { pass: 0, fail: 0, questionable: 0, unknown: 0, pass_weight: 0, fail_weight: 0, questionable_weight: 0, unknown_weight: 0 },
    ]),
  ) as Record<FrameworkId, FrameworkStats>;
  const holdings = fund.holdings.map((holding) => {
    const row = service.reads.current(holding.market, holding.ticker);
    const verdicts = row ? Object.fromEntries(request.frameworks.map((id) => [id, row.statuses[id]])) : null;
    for (const id of request.frameworks) {
      const bucket = row ? BUCKET[row.statuses[id]] : 'unknown';
      stats[id][bucket] += 1;
      stats[id][`${bucket}_weight`] = round(stats[id][`${bucket}_weight`] + holding.weight);
    }
    return {
      market: holding.market,
      ticker: holding.ticker,
      company_name: service.reads.listing(holding.market, holding.ticker)?.name ?? null,
      weight: holding.weight,
      snapshot_date: row?.snapshotDate ?? null,
      verdicts,
    };
  });
  return {
    etf_ticker: request.etfTicker,
    market: request.market,
    fund_name: service.reads.listing(request.market, request.etfTicker)?.name ?? null,
    as_of: fund.asOf,
    holdings_in_report: fund.totalHoldings,
    holdings_screened: holdings.length,
    covered_weight: round(holdings.reduce((sum, h) => sum + h.weight, 0)),
    frameworks_returned: request.frameworks,
    holdings,
    framework_stats: stats,
  };
}
