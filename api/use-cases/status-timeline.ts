import {
  decidingReasons,
  statusChanges,
  type FrameworkId,
  type Reason,
  type ScreeningResult,
  type StatusChange,
  type VerdictStatus,
} from '../../engine/index.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';
import { notFound } from '../../common/app-error.ts';
import type { ScreenService } from '../screen-service.ts';
import { SYNTHETIC_NOTICE } from '../../serving/screen-report.ts';
import { reasonsKept } from './snapshot-as-of.ts';
import { loadResults } from './screen-ticker.ts';

export interface TimelineRequest {
  market: string;
  ticker: string;
  frameworks: readonly FrameworkId[];
  /** First day of the range (`YYYY-MM-DD`); null = the ticker's first snapshot. */
  from: string | null;
  /** Last day of the range (`YYYY-MM-DD`), already checked not to be in the future. */
  to: string;
}

/** A change found between two consecutive snapshots: `at` is the later one, `before` the one just before it. */
interface FoundChange extends StatusChange {
  at: VerdictRow;
  before: VerdictRow;
}

function reasonsOf(result: ScreeningResult | undefined, id: FrameworkId): readonly Reason[] {
  return result?.frameworks[id]?.reasons ?? [];
}

/**
 * The checks that set the new status `to`, from the later snapshot's reasons. Reaching compliant
 * is decided by the checks that had kept the old status and now pass: those same checks, with
 * their new values (a backfill snapshot does not store passing checks, so there it is empty).
 */
export function settingReasons(to: VerdictStatus, after: readonly Reason[], cleared: readonly Reason[]): Reason[] {
  if (to !== 'compliant') return decidingReasons(to, after);
  const codes = new Set(cleared.map((reason) => reason.code));
  return after.filter((reason) => codes.has(reason.code));
}

/** Each numeric limit's margin among `reasons` (the newest snapshot's of the range). */
export function marginsOf(reasons: readonly Reason[]): Array<Record<string, unknown>> {
  return reasons
    .filter((reason) => typeof reason.margin === 'number')
    .map((reason) => ({
      code: reason.code,
      metric: reason.metric ?? null,
      value: reason.value ?? null,
      threshold: reason.threshold ?? null,
      operator: reason.operator ?? null,
      within_limit: reason.within_limit ?? null,
      margin: reason.margin,
      near_limit: reason.near_limit ?? false,
    }));
}

/** The day the status held at `newest` began: the first snapshot of the run of equal statuses ending there. */
function sinceOf(rows: readonly VerdictRow[], newest: number, id: FrameworkId): string {
  let start = newest;
  while (start > 0 && rows[start - 1]!.statuses[id] === rows[newest]!.statuses[id]) start -= 1;
  return rows[start]!.snapshotDate;
}

/** 404 for a ticker without history, naming its first snapshot when the range ends before it. */
export function assertHistory(service: ScreenService, request: Omit<TimelineRequest, 'frameworks'>, rows: readonly VerdictRow[]): void {
  const { market, ticker, to } = request;
  if (rows.length === 0) {
    if (!service.reads.listing(market, ticker))
      throw notFound(`ticker '${ticker}' is not listed in market '${market}' and has no compliance history`, 'ticker_not_found');
    throw notFound(`no compliance history for ${market}/${ticker}: it has no snapshots yet`, 'no_history');
  }
  const first = rows[0]!.snapshotDate;
  if (to < first)
    throw notFound(
      `no compliance history for ${market}/${ticker} at or before to=${to}; its first snapshot is dated ${first}`,
      'no_history',
    );
}

/**
 * The status timeline of one ticker (docs/api.md, "Status timeline"): for each framework the
 * status changes between consecutive snapshots dated in [from, to] — each with the checks that
 * decided it, read from the later snapshot's stored result — the number of flips, the status at
 * the newest snapshot of the range and since when it holds, and each limit's latest margin.
 * The first snapshot of the range is compared with the one before it, so a change on the
 * range's first day counts. 404 for an unknown ticker or a range before its history.
 */
export async function statusTimeline(service: ScreenService, request: TimelineRequest): Promise<Record<string, unknown>> {
  const { frameworks } = request;
  const { rows, from } = await historyInRange(service, request);
  const newest = rows.length - 1;

  const found: FoundChange[] = [];
  for (let i = 1; i < rows.length; i += 1) {
    if (rows[i]!.snapshotDate < from) continue;
    for (const change of statusChanges(rows[i - 1]!.statuses, rows[i]!.statuses, frameworks))
      found.push({ ...change, at: rows[i]!, before: rows[i - 1]! });
  }

  // One read for every stored result the answer needs: each change's two snapshots and the newest.
  const needed = [...new Set([...found.flatMap((c) => [c.before, c.at]), rows[newest]!])];
  const loaded = await loadResults(service, needed);
  const indexOf = new Map(needed.map((row, i) => [row, i]));
  const resultOf = (row: VerdictRow) => loaded[indexOf.get(row)!];
  const latest = rows[newest]!;

  const byFramework = frameworks.map((id) => {
    const changes = found
      .filter((change) => change.framework === id)
      .map((change) => {
        // The checks that had set the earlier status, as they stood in the earlier snapshot.
        const cleared = decidingReasons(change.from, reasonsOf(resultOf(change.before), id));
        const versions = [resultOf(change.before), resultOf(change.at)].map(
          (result) => result?.frameworks[id]?.methodology_version ?? null,
        );
        return {
          date: change.at.snapshotDate,
          previous_date: change.before.snapshotDate,
          from: change.from,
          to: change.to,
          reasons: settingReasons(change.to, reasonsOf(resultOf(change.at), id), cleared),
          cleared,
          // A flip may come from a new rule text rather than new figures: both versions say which.
          methodology_version: versions[1],
          previous_methodology_version: versions[0],
          source: change.at.source,
          reasons_kept: reasonsKept(change.at),
        };
      });
    return [
      id,
      {
        current_status: latest.statuses[id],
        since: sinceOf(rows, newest, id),
        flips: changes.length,
        changes,
        margins: marginsOf(reasonsOf(resultOf(latest), id)),
      },
    ] as const;
  });

  return timelineAnswer(request, rows, from, {}, Object.fromEntries(byFramework));
}

/** The ticker's snapshots dated on or before `to`, oldest first, and the range's first day (`from`, or the first snapshot's). */
export async function historyInRange(service: ScreenService, request: Omit<TimelineRequest, 'frameworks'>) {
  const history = await service.reads.tickerHistory(request.market, request.ticker);
  assertHistory(service, request, history);
  const rows = history.filter((row) => row.snapshotDate <= request.to);
  return { rows, from: request.from ?? rows[0]!.snapshotDate };
}

/** A timeline's answer around its frameworks' entries: the range, the newest snapshot and the data's provenance. */
export function timelineAnswer(
  request: Omit<TimelineRequest, 'frameworks'>,
  rows: readonly VerdictRow[],
  from: string,
  extra: Record<string, unknown>,
  frameworks: Record<string, unknown>,
): Record<string, unknown> {
  const latest = rows.at(-1)!;
  return {
    ticker: request.ticker,
    market: request.market,
    from,
    to: request.to,
    first_snapshot_date: rows[0]!.snapshotDate,
    snapshots_in_range: rows.filter((row) => row.snapshotDate >= from).length,
    latest_snapshot: {
      date: latest.snapshotDate,
      screened_at: latest.screenedAt,
      source: latest.source,
      reasons_kept: reasonsKept(latest),
    },
    ...extra,
    frameworks,
    provenance: {
      data_source: latest.dataSource,
      synthetic: latest.synthetic,
      ...(latest.synthetic ? { notice: SYNTHETIC_NOTICE } : {}),
    },
  };
}
