import type { ScreeningInput, ScreeningResult } from '../engine/index.ts';
import type { Reason } from '../engine/result-types.ts';
import { SNAPSHOT_FRAMEWORKS } from '../warehouse/lake-schemas.ts';
import { packResult } from '../warehouse/methodology-texts.ts';
import { eraOf, snapshotRatiosOf, statusColumn, type SnapshotRow } from '../warehouse/snapshot-schema.ts';
import type { SnapshotSource } from '../warehouse/snapshot-schema.ts';

export interface SnapshotMeta {
  source: SnapshotSource;
  runId: string;
  /** ISO 8601 UTC timestamp without zone, e.g. `2026-11-21T02:14:09.123`. */
  screenedAt: string;
}

/** `2026-11-21T02:14:09.123Z` → `2026-11-21T02:14:09.123` (the lake stores UTC without zone). */
export function screenedAtNow(now: Date = new Date()): string {
  return now.toISOString().slice(0, 23);
}

/**
 * The lake row of one screen: statuses and key ratios as columns for queries, the engine's
 * full result (reasons included) as `result_json`, its methodology texts as references to the
 * lake's `methodology_texts` (the snapshot writer publishes them first; docs/warehouse.md).
 * Ratios against market cap use the trailing 24-month average (the DJIM and S&P denominator).
 */
export function snapshotRowFrom(input: ScreeningInput, result: ScreeningResult, meta: SnapshotMeta): SnapshotRow {
  const statuses = Object.fromEntries(
    SNAPSHOT_FRAMEWORKS.map((id) => [statusColumn(id), result.frameworks[id]?.status ?? 'insufficient_data']),
  ) as Pick<SnapshotRow, `${(typeof SNAPSHOT_FRAMEWORKS)[number]}_status`>;
  return {
    market: input.listing.market,
    ticker: input.listing.ticker,
    snapshot_date: input.screeningDate,
    screened_at: meta.screenedAt,
    source: meta.source,
    run_id: meta.runId,
    era: eraOf(input.screeningDate),
    engine_version: result.engine_version,
    ...statuses,
    ...snapshotRatiosOf(result),
    filing_ref: input.fundamentals?.sourceRef ?? null,
    period_end: input.fundamentals?.periodEnd ?? null,
    price_date: input.marketCap.spotPriceDate,
    result_json: JSON.stringify(packResult(result)),
    synthetic: input.synthetic,
    data_source: input.dataSource,
  };
}

/**
 * A deciding reason as history keeps it: what was measured against which limit, and its
 * provenance down to each figure (the filing or exposure source, and on real filings each
 * input's concept and accession). The rule's published source and band details are dropped:
 * the methodology version names them.
 */
function compactReason(reason: Reason): Reason {
  const { code, result, message, metric, value, threshold, operator, filing_ref, evidence_level, inputs } = reason;
  return { code, result, message, metric, value, threshold, operator, filing_ref, evidence_level, inputs };
}

/**
 * The result kept for backfill snapshots: every status, score and methodology version, the
 * ratios and provenance, and the reasons that decided a verdict (passing checks dropped) with
 * their provenance (`compactReason`).
 * History at full size would be ~22 kB a snapshot; this keeps 2009→today small enough to
 * write in minutes. The full result is reproducible: same inputs, same engine version.
 */
export function compactResult(result: ScreeningResult): ScreeningResult {
  const frameworks: ScreeningResult['frameworks'] = {};
  for (const id of result.frameworks_returned) {
    const fr = result.frameworks[id];
    if (!fr) continue;
    frameworks[id] = {
      ...fr,
      reasons: fr.reasons.filter((reason) => reason.result !== 'pass' && reason.result !== 'info').map(compactReason),
      components: undefined,
    };
  }
  return { ...result, frameworks, data_quality: [] };
}
