import {
  decidingReasons as reasonsThatSet,
  type FrameworkId,
  type Reason,
  type ScreeningResult,
  type VerdictStatus,
} from '../../engine/index.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';

/** How a piece of the portfolio counts in a framework: insufficient data, no verdict or an expired one are all unknown. */
export type Counted = 'compliant' | 'non_compliant' | 'questionable' | 'unknown';

/** One company's share of the portfolio, held directly or through a fund; `ticker` null for the part of a fund no report covers. */
export interface Exposure {
  market: string | null;
  ticker: string | null;
  via: string | null;
  /** Share of the portfolio value, 0..1. */
  weight: number;
  row: VerdictRow | undefined;
  expired: boolean;
}

/** Companies listed per framework and kind (failing; questionable or unknown), heaviest first; the counts give the rest. */
export const EXPOSURES_LISTED = 100;

export const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** One framework's verdicts on snapshots: a built-in framework's as stored, or a custom screen's computed from them. */
export interface Verdicts {
  /** The verdict's status on `row`; undefined when the snapshot has none. */
  status(row: VerdictRow): VerdictStatus | undefined;
  /** The reasons that set it (none for compliant, or when the snapshot's result was not read). */
  deciding(row: VerdictRow): Reason[];
}

/** A built-in framework's verdicts: statuses from the rows, reasons from the results read into `results` (read when asked). */
export function storedVerdicts(framework: FrameworkId, results: ReadonlyMap<VerdictRow, ScreeningResult>): Verdicts {
  return {
    status: (row) => row.statuses[framework],
    deciding: (row) => {
      const verdict = results.get(row)?.frameworks[framework];
      return verdict ? reasonsThatSet(verdict.status, verdict.reasons) : [];
    },
  };
}

/** Fail closed: no verdict, an expired one or insufficient data is unknown, never compliant. */
export function countedAs(exposure: Pick<Exposure, 'row' | 'expired'>, verdicts: Verdicts): Counted {
  if (!exposure.row || exposure.expired) return 'unknown';
  const status = verdicts.status(exposure.row);
  return status === 'insufficient_data' || status === undefined ? 'unknown' : status;
}

/** A deciding reason as the response carries it. */
export function reasonJson(r: Reason): Record<string, unknown> {
  return {
    code: r.code,
    result: r.result,
    message: r.message,
    ...(r.metric !== undefined ? { metric: r.metric } : {}),
    ...(r.value !== undefined ? { value: r.value } : {}),
    ...(r.threshold !== undefined ? { threshold: r.threshold } : {}),
    ...(r.filing_ref !== undefined ? { filing_ref: r.filing_ref } : {}),
  };
}

/** Why an exposure is not compliant, in words. */
function whyOf(exposure: Exposure, verdicts: Verdicts): string[] {
  if (exposure.ticker === null) return [`the part of fund ${exposure.via} its latest holdings report does not cover`];
  if (!exposure.row) return ['never screened: no verdict'];
  if (exposure.expired) return [`the newest verdict, of ${exposure.row.snapshotDate}, is older than the stale window`];
  const reasons = verdicts.deciding(exposure.row).map((r) => r.message);
  return reasons.length > 0 ? reasons : [`${verdicts.status(exposure.row)} on ${exposure.row.snapshotDate}`];
}

/** Exposures to the same company (directly and through funds) as one, weights added. */
function byCompany(exposures: readonly Exposure[]): Exposure[] {
  const merged = new Map<string, Exposure>();
  for (const e of exposures) {
    const key = e.ticker === null ? `uncovered|${e.via}` : `${e.market}:${e.ticker}`;
    const seen = merged.get(key);
    if (!seen) merged.set(key, { ...e });
    else {
      seen.weight += e.weight;
      // Held directly and through a fund: named as direct, the heavier part.
      if (e.via === null) seen.via = null;
    }
  }
  return [...merged.values()].sort((a, b) => b.weight - a.weight);
}

/** Per framework: shares of value by status, the failing exposures with why, and the undecided ones. */
export function frameworkSummary(exposures: readonly Exposure[], verdicts: Verdicts): Record<string, unknown> {
  const shares: Record<Counted, number> = { compliant: 0, non_compliant: 0, questionable: 0, unknown: 0 };
  for (const e of exposures) shares[countedAs(e, verdicts)] += e.weight;
  const companies = byCompany(exposures);
  const json = (e: Exposure) => ({
    market: e.market,
    ticker: e.ticker,
    via: e.via,
    weight: round6(e.weight),
    status: e.row && !e.expired ? verdicts.status(e.row) : 'unknown',
    why: whyOf(e, verdicts),
  });
  const { failing, notDecided } = notCompliant(companies, verdicts);
  return {
    compliant: round6(shares.compliant),
    non_compliant: round6(shares.non_compliant),
    questionable: round6(shares.questionable),
    unknown: round6(shares.unknown),
    failing: failing.slice(0, EXPOSURES_LISTED).map(json),
    failing_count: failing.length,
    not_decided: notDecided.slice(0, EXPOSURES_LISTED).map(json),
    not_decided_count: notDecided.length,
  };
}

function notCompliant(companies: readonly Exposure[], verdicts: Verdicts): { failing: Exposure[]; notDecided: Exposure[] } {
  return {
    failing: companies.filter((e) => countedAs(e, verdicts) === 'non_compliant'),
    notDecided: companies.filter((e) => ['questionable', 'unknown'].includes(countedAs(e, verdicts))),
  };
}

/** The snapshots whose reasons the summaries print: the companies listed under each framework. */
export function rowsNeedingReasons(exposures: readonly Exposure[], frameworks: readonly Verdicts[]): VerdictRow[] {
  const companies = byCompany(exposures);
  const rows = new Set<VerdictRow>();
  for (const verdicts of frameworks) {
    const { failing, notDecided } = notCompliant(companies, verdicts);
    for (const e of [...failing.slice(0, EXPOSURES_LISTED), ...notDecided.slice(0, EXPOSURES_LISTED)])
      if (e.row && !e.expired) rows.add(e.row);
  }
  return [...rows];
}
