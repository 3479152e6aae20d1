import { ENGINE_REVISION_DATE, type FrameworkId, type ScreeningResult } from '../../engine/index.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';
import type { SnapshotRatio } from '../../warehouse/snapshot-schema.ts';
import { notFound } from '../../common/app-error.ts';
import type { ScreenService } from '../screen-service.ts';
import { SYNTHETIC_NOTICE } from '../../serving/screen-report.ts';
import { loadResult } from './screen-ticker.ts';

const LEGACY_WARNING =
  `Legacy-era snapshot: dated before the screening-engine revision of ${ENGINE_REVISION_DATE}. Verdicts ` +
  `of this era may carry defects of earlier engine revisions; compare with a current verdict before relying on it.`;

/** Key ratios per framework, named with their basis; faith exclusion screens and the consensus use none. */
const MARKET_CAP_RATIOS = {
  debt_to_market_cap_24m: 'debt_to_market_cap',
  cash_to_market_cap_24m: 'cash_to_market_cap',
  receivables_to_market_cap_24m: 'receivables_to_market_cap',
  non_permissible_income_share: 'non_permissible_income_share',
} as const;
const ASSET_RATIOS = {
  debt_to_assets: 'debt_to_assets',
  cash_to_assets: 'cash_to_assets',
  receivables_and_cash_to_assets: 'receivables_cash_to_assets',
  non_permissible_income_share: 'non_permissible_income_share',
} as const;
const KEY_RATIOS: Partial<Record<FrameworkId, Record<string, SnapshotRatio>>> = {
  shariah_aaoifi: MARKET_CAP_RATIOS,
  shariah_djim: MARKET_CAP_RATIOS,
  shariah_sp: MARKET_CAP_RATIOS,
  shariah_ftse: ASSET_RATIOS,
  shariah_msci: ASSET_RATIOS,
};

/** What a snapshot's stored result keeps: a backfill stores only the reasons that decided each verdict (passing checks dropped). */
export function reasonsKept(row: VerdictRow): 'all' | 'deciding' {
  return row.source === 'backfill' ? 'deciding' : 'all';
}

/** Status and key ratios of one framework, with its methodology version and stored reasons when a result was read. */
function frameworkEntry(row: VerdictRow, result: ScreeningResult | null, id: FrameworkId): Record<string, unknown> {
  const names = KEY_RATIOS[id] ?? {};
  const entry: Record<string, unknown> = {
    status: row.statuses[id],
    key_ratios: Object.fromEntries(Object.entries(names).map(([name, column]) => [name, row.ratios[column]])),
  };
  if (result === null) return entry;
  const stored = result.frameworks[id];
  return { ...entry, methodology_version: stored?.methodology_version ?? null, reasons: stored?.reasons ?? [] };
}

/** The snapshot in force on `asOf` (the latest at or before it); 404 naming where the ticker's history starts. */
export async function snapshotRowAsOf(service: ScreenService, market: string, ticker: string, asOf: string): Promise<VerdictRow> {
  const lookup = await service.reads.asOf(market, ticker, asOf);
  if (lookup.found) return lookup.row;
  if (lookup.firstSnapshotDate === null && !service.reads.listing(market, ticker)) {
    throw notFound(`ticker '${ticker}' is not listed in market '${market}' and has no compliance history`, 'ticker_not_found');
  }
  const first = lookup.firstSnapshotDate === null ? 'it has no snapshots yet' : `its first snapshot is dated ${lookup.firstSnapshotDate}`;
  throw notFound(`no compliance history for ${market}/${ticker} at or before ${asOf}; ${first}`, 'no_history');
}

export interface AsOfRequest {
  market: string;
  ticker: string;
  asOf: string;
  frameworks: readonly FrameworkId[];
  /** Read the snapshot's stored result for its reasons (a keyed read of the serving store, like a report's); else the answer comes from memory. */
  withReasons: boolean;
}

/**
 * The point-in-time snapshot response; with `withReasons`, each verdict also carries
 * the reasons stored with it (docs/api.md, "as_of"). 404 when the ticker has no snapshot at or
 * before `as_of`.
 */
export async function snapshotAsOf(service: ScreenService, request: AsOfRequest): Promise<Record<string, unknown>> {
  const { market, ticker, asOf } = request;
  const row = await snapshotRowAsOf(service, market, ticker, asOf);
  const result = request.withReasons ? await loadResult(service, row) : null;
  return asOfEnvelope({ market, ticker, asOf }, row, {
    ...(result ? { reasons_kept: reasonsKept(row) } : {}),
    frameworks: Object.fromEntries(request.frameworks.map((id) => [id, frameworkEntry(row, result, id)])),
    market_cap: { spot: row.ratios.market_cap, avg_24m: row.ratios.avg_market_cap_24m, avg_36m: row.ratios.avg_market_cap_36m },
    provenance: {
      data_source: row.dataSource,
      synthetic: row.synthetic,
      ...(row.synthetic ? { notice: SYNTHETIC_NOTICE } : {}),
      ...(result ? { filing: result.provenance.filing } : {}),
    },
  });
}

/**
 * An as_of answer around its `parts` (frameworks, provenance, …): the date asked, the snapshot
 * that answered it and its era, a legacy-era one with its data-quality warning; always historical.
 * Built-in frameworks and custom screens answer in this one envelope.
 */
export function asOfEnvelope(
  asked: { market: string; ticker: string; asOf: string },
  row: VerdictRow,
  parts: Record<string, unknown>,
): Record<string, unknown> {
  return {
    ticker: asked.ticker,
    market: asked.market,
    as_of: asked.asOf,
    snapshot_date: row.snapshotDate,
    screened_at: row.screenedAt,
    source: row.source,
    era: row.era,
    ...(row.era === 'legacy' ? { data_quality: { warning: LEGACY_WARNING, engine_current_since: ENGINE_REVISION_DATE } } : {}),
    ...parts,
    historical: true,
  };
}
