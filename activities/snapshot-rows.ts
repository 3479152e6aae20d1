import type { ScreeningInput, ScreeningResult } from '../engine/index.ts';
import { storedDefaultReport } from '../serving/default-report.ts';
import type { StoredReport } from '../serving/serving-types.ts';
import type { FrameworkResult, Reason } from '../engine/result-types.ts';
import { SNAPSHOT_FRAMEWORKS } from '../warehouse/lake-schemas.ts';
import { packResult, threadTextBook, type TextBook } from '../warehouse/methodology-texts.ts';
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
 * The default report of a screen of today (a nightly's, a refresh's), rendered as it is published,
 * so an API serves it with no render (docs/serving.md, "Pre-rendered reports"). A backfill's
 * history renders none: only a ticker's current verdict has a stored report.
 */
export function defaultReportOf(row: SnapshotRow, result: ScreeningResult, companyName: string): StoredReport {
  const stamp = {
    market: row.market,
    ticker: row.ticker,
    snapshotDate: row.snapshot_date,
    screenedAt: row.screened_at,
    source: row.source,
  };
  return storedDefaultReport(result, stamp, companyName);
}

/**
 * The lake row of one screen: statuses and key ratios as columns for queries, the engine's
 * full result (reasons included) as `result_json`, its methodology texts as references to the
 * lake's `methodology_texts` (the snapshot writer publishes them first; docs/warehouse.md).
 * Ratios against market cap use the trailing 24-month average (the DJIM and S&P denominator).
 */
export function snapshotRowFrom(input: ScreeningInput, result: ScreeningResult, meta: SnapshotMeta): SnapshotRow {
  return rowWithJson(input, result, meta, JSON.stringify(packResult(result)));
}

/** The lake row of one backfill screen: as `snapshotRowFrom` with the compact result (`compactResultJson`). */
export function backfillSnapshotRow(input: ScreeningInput, result: ScreeningResult, meta: SnapshotMeta): SnapshotRow {
  return rowWithJson(input, result, meta, compactResultJson(result));
}

function rowWithJson(input: ScreeningInput, result: ScreeningResult, meta: SnapshotMeta, resultJson: string): SnapshotRow {
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
    result_json: resultJson,
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
    if (fr) frameworks[id] = compactFramework(fr);
  }
  return { ...result, frameworks, data_quality: [] };
}

function compactFramework(fr: FrameworkResult): FrameworkResult {
  return {
    ...fr,
    reasons: fr.reasons.filter((reason) => reason.result !== 'pass' && reason.result !== 'info').map(compactReason),
    components: undefined,
  };
}

/** Each framework result's stored JSON per text book: a result reused across dates (engine/screen-series.ts) is serialised once. */
const frameworkJsonByBook = new WeakMap<TextBook, WeakMap<FrameworkResult, string>>();

/** `compactReason` with its message referenced, as `packFramework(compactFramework(…))` gives it, in one copy. */
function storedReason(reason: Reason, engine: string, methodology: string, book: TextBook): Reason {
  const { code, result, message, metric, value, threshold, operator, filing_ref, evidence_level, inputs } = reason;
  const stored = typeof message === 'string' ? book.reference(engine, methodology, code, 'message', message) : message;
  return { code, result, message: stored, metric, value, threshold, operator, filing_ref, evidence_level, inputs };
}

/** `packFramework(compactFramework(fr), engine, book)` in one copy of the framework (the copies are most of a row's garbage). */
function storedFramework(fr: FrameworkResult, engine: string, book: TextBook): FrameworkResult {
  const methodology = fr.methodology_version;
  const reasons: Reason[] = [];
  for (const reason of fr.reasons) {
    if (reason.result !== 'pass' && reason.result !== 'info') reasons.push(storedReason(reason, engine, methodology, book));
  }
  const stored: FrameworkResult = { ...fr, reasons, components: undefined };
  if (fr.purification) {
    const formula = book.reference(engine, methodology, `${fr.id}.purification`, 'formula', fr.purification.formula);
    stored.purification = { ...fr.purification, formula };
  }
  return stored;
}

/**
 * `JSON.stringify(packResult(compactResult(result), book))`, byte for byte (tested), written
 * member by member: each framework's part is taken from the cache when the same framework
 * result object was stored before (a packed text never changes once packed: a book only ever
 * adds texts), and the members are written in the result's own key order.
 */
export function compactResultJson(result: ScreeningResult, book: TextBook = threadTextBook): string {
  let cache = frameworkJsonByBook.get(book);
  if (cache === undefined) frameworkJsonByBook.set(book, (cache = new WeakMap()));
  const engine = result.engine_version;
  let json = '{';
  for (const key of Object.keys(result) as Array<keyof ScreeningResult>) {
    let member: string | undefined;
    if (key === 'frameworks') member = frameworksJson(result, cache, book);
    else if (key === 'data_quality') member = '[]';
    else if (key === 'madhhab_views' && result.madhhab_views) {
      const note = book.reference(engine, '', 'madhhab_views', 'note', result.madhhab_views.note);
      member = JSON.stringify({ ...result.madhhab_views, note });
    } else member = JSON.stringify(result[key]);
    // As JSON.stringify: a member whose value is undefined is not written.
    if (member === undefined) continue;
    json += `${json.length > 1 ? ',' : ''}"${key}":${member}`;
  }
  return `${json}}`;
}

/** The stored `frameworks` object: each returned framework once, in `frameworks_returned` order (`compactResult`'s). */
function frameworksJson(result: ScreeningResult, cache: WeakMap<FrameworkResult, string>, book: TextBook): string {
  let json = '{';
  const seen = new Set<string>();
  for (const id of result.frameworks_returned) {
    const fr = result.frameworks[id];
    if (!fr || seen.has(id)) continue;
    seen.add(id);
    let part = cache.get(fr);
    if (part === undefined) {
      part = JSON.stringify(storedFramework(fr, result.engine_version, book));
      cache.set(fr, part);
    }
    json += `${json.length > 1 ? ',' : ''}"${id}":${part}`;
  }
  return `${json}}`;
}
