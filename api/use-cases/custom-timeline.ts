import { applyCustomScreen } from '../../engine/custom-screen/apply-custom-screen.ts';
import type { CustomFrameworkResult } from '../../engine/custom-screen/custom-screen-types.ts';
import { decidingReasons } from '../../engine/index.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';
import type { ScreenService } from '../screen-service.ts';
import { customScreenBlock, type AppliedScreen } from './screen-custom.ts';
import { reasonsKept } from './snapshot-as-of.ts';
import { loadResults } from './screen-ticker.ts';
import { historyInRange, marginsOf, settingReasons, timelineAnswer } from './status-timeline.ts';

export interface CustomTimelineRequest {
  market: string;
  ticker: string;
  /** First day of the range (`YYYY-MM-DD`); null = the ticker's first snapshot. */
  from: string | null;
  /** Last day of the range (`YYYY-MM-DD`), already checked not to be in the future. */
  to: string;
  /** The screen's version in force today, applied to every snapshot. */
  applied: AppliedScreen;
  /** Today (`YYYY-MM-DD`, UTC): the day whose version is applied. */
  today: string;
}

/** Snapshots read at a time when walking back past the range for the day the current status began. */
const WALK_BACK = 32;

/**
 * The status timeline of one ticker under `custom:<slug>` (docs/custom-screens.md, "Timeline"):
 * each snapshot's custom verdict computed from its stored result under the version in force
 * today, so the history answers "since when would my screen, as it stands, have passed it". A
 * backfill snapshot keeps only its deciding reasons: what the layer needs and it lacks fails closed
 * (engine/custom-screen/restored-base-checks.ts). Shaped as the built-in timeline, with the base's
 * status beside each change and each reason's `origin`.
 */
export async function customTimeline(service: ScreenService, request: CustomTimelineRequest): Promise<Record<string, unknown>> {
  const { market, ticker, applied } = request;
  const { rows, from } = await historyInRange(service, request);
  const verdicts = new Map<VerdictRow, CustomFrameworkResult>();
  const judge = async (some: readonly VerdictRow[]) => {
    const results = await loadResults(service, some);
    some.forEach((row, i) =>
      verdicts.set(
        row,
        applyCustomScreen(results[i]!, applied.base, applied.slug, applied.version, `${market}/${ticker}`, reasonsKept(row)),
      ),
    );
  };
  const newest = rows.length - 1;
  const firstInRange = rows.findIndex((row) => row.snapshotDate >= from);
  // The snapshot before the range too: a change on the range's first day counts.
  let judgedFrom = Math.min(newest, Math.max(0, (firstInRange === -1 ? rows.length : firstInRange) - 1));
  await judge(rows.slice(judgedFrom));
  const verdictAt = (i: number) => verdicts.get(rows[i]!)!;

  let since = newest;
  for (;;) {
    while (since > judgedFrom && verdictAt(since - 1).status === verdictAt(newest).status) since -= 1;
    if (since > judgedFrom || judgedFrom === 0) break;
    const next = Math.max(0, judgedFrom - WALK_BACK);
    await judge(rows.slice(next, judgedFrom));
    judgedFrom = next;
  }

  const version = applied.version?.version ?? null;
  const changes = [];
  // No snapshot dated in the range (from after the newest): no change in it.
  const firstCompared = firstInRange === -1 ? rows.length : Math.max(1, firstInRange);
  for (let i = firstCompared; i <= newest; i += 1) {
    const [before, at] = [verdictAt(i - 1), verdictAt(i)];
    if (before.status === at.status) continue;
    const cleared = decidingReasons(before.status, before.reasons);
    changes.push({
      date: rows[i]!.snapshotDate,
      previous_date: rows[i - 1]!.snapshotDate,
      from: before.status,
      to: at.status,
      base_status: at.base_status,
      previous_base_status: before.base_status,
      reasons: settingReasons(at.status, at.reasons, cleared),
      cleared,
      methodology_version: at.methodology_version,
      previous_methodology_version: before.methodology_version,
      custom_screen_version: version,
      source: rows[i]!.source,
      reasons_kept: reasonsKept(rows[i]!),
    });
  }

  const latest = verdictAt(newest);
  const withMargin = latest.reasons.filter((reason) => typeof reason.margin === 'number');
  const entry = {
    base: applied.base,
    current_status: latest.status,
    base_status: latest.base_status,
    since: rows[since]!.snapshotDate,
    flips: changes.length,
    changes,
    margins: marginsOf(withMargin).map((margin, i) => ({ ...margin, origin: withMargin[i]!.origin })),
  };
  const customScreen = { ...customScreenBlock(applied), applied_as_of: request.today };
  return timelineAnswer(request, rows, from, { custom_screen: customScreen }, { [`custom:${applied.slug}`]: entry });
}
