import { applyCustomScreen } from '../../engine/custom-screen/apply-custom-screen.ts';
import type { FrameworkId, VerdictStatus } from '../../engine/index.ts';
import { notFound } from '../../common/app-error.ts';
import type { ScreenService } from '../screen-service.ts';
import type { AppliedScreen } from './screen-custom.ts';
import { loadResults } from './screen-ticker.ts';
import { reasonsKept } from './snapshot-as-of.ts';

export interface EtfRequest {
  etfTicker: string;
  market: string;
  maxHoldings: number;
  frameworks: readonly FrameworkId[];
  /** Answer under one of the account's custom screens instead (computed from the holdings' stored results). */
  custom?: AppliedScreen;
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
  const rows = fund.holdings.map((holding) => service.reads.current(holding.market, holding.ticker));
  const custom = request.custom;
  const ids: string[] = custom ? [`custom:${custom.slug}`] : [...request.frameworks];
  // Under a custom screen each screened holding's verdict is computed from its stored result, read together.
  const screened = rows.filter((row) => row !== undefined);
  const results = custom ? await loadResults(service, screened) : [];
  const customStatus = new Map(
    custom
      ? screened.map((row, i) => [
          row,
          applyCustomScreen(results[i]!, custom.base, custom.slug, custom.version, `${row.market}/${row.ticker}`, reasonsKept(row)).status,
        ])
      : [],
  );
  const stats = Object.fromEntries(
    ids.map((id) => [
      id,
      { pass: 0, fail: 0, questionable: 0, unknown: 0, pass_weight: 0, fail_weight: 0, questionable_weight: 0, unknown_weight: 0 },
    ]),
  ) as Record<string, FrameworkStats>;
  const statusOf = (row: NonNullable<(typeof rows)[number]>, id: string): VerdictStatus =>
    custom ? customStatus.get(row)! : row.statuses[id as FrameworkId];
  const holdings = fund.holdings.map((holding, i) => {
    const row = rows[i];
    const verdicts = row ? Object.fromEntries(ids.map((id) => [id, statusOf(row, id)])) : null;
    for (const id of ids) {
      const bucket = row ? BUCKET[statusOf(row, id)] : 'unknown';
      const tally = stats[id]!;
      tally[bucket] += 1;
      tally[`${bucket}_weight`] = round(tally[`${bucket}_weight`] + holding.weight);
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
    frameworks_returned: ids,
    ...(custom ? { custom_screen: { slug: custom.slug, base: custom.base, version: custom.version?.version ?? null } } : {}),
    holdings,
    framework_stats: stats,
  };
}
