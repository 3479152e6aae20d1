import type {
  FigureName,
  FigureUsed,
  MethodRef,
  MissingFigure,
  PeriodRole,
  PeriodSet,
  ScoreInsufficient,
  ScoreOk,
  ScoreResult,
  Threshold,
} from './types.ts';

/**
 * Reads the figures a score needs from a `PeriodSet`, recording each figure used (with its
 * filing) and each one missing, so every score can show its inputs and say what it lacked.
 */
export class FigureReader {
  readonly inputs: FigureUsed[] = [];
  readonly missing: MissingFigure[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly periods: PeriodSet) {}

  /** The figure, or null (recorded as missing) when the period or the figure is absent. */
  get(field: FigureName, role: PeriodRole): number | null {
    const period = this.periods[role];
    const key = `${role}|${field}`;
    if (!period) {
      this.noteMissing(
        { field: 'period', period: role, period_end: null, reason: `no ${describeRole(role)} period in the filings` },
        `${role}|period`,
      );
      return null;
    }
    const value = period.figures[field];
    if (value === null || value === undefined || !Number.isFinite(value)) {
      this.noteMissing({ field, period: role, period_end: period.periodEnd, reason: 'not reported in the filing' }, key);
      return null;
    }
    this.noteUsed(key, {
      field,
      period: role,
      period_end: period.periodEnd,
      value,
      source_ref: period.sourceRef,
      filed_on: period.filedOn,
    });
    return value;
  }

  /** The figure when reported, else null, without counting it as missing (optional inputs). */
  optional(field: FigureName, role: PeriodRole): number | null {
    const value = this.periods[role]?.figures[field];
    if (value === null || value === undefined || !Number.isFinite(value)) return null;
    return this.get(field, role);
  }

  /** Market value of equity at the period end: the latest close on or before it × the filing's shares. */
  marketValue(role: PeriodRole): number | null {
    const period = this.periods[role];
    if (!period) {
      this.noteMissing(
        { field: 'period', period: role, period_end: null, reason: `no ${describeRole(role)} period in the filings` },
        `${role}|period`,
      );
      return null;
    }
    const shares = this.get('shares_outstanding', role);
    if (period.close === null) {
      this.noteMissing(
        {
          field: 'market_value_of_equity',
          period: role,
          period_end: period.periodEnd,
          reason: 'no closing price on or before the period end',
        },
        `${role}|mve`,
      );
      return null;
    }
    if (shares === null) return null;
    const value = period.close * shares;
    this.noteUsed(`${role}|mve`, {
      field: 'market_value_of_equity',
      period: role,
      period_end: period.closeDate ?? period.periodEnd,
      value,
      source_ref: `close ${period.closeDate ?? ''} × shares of ${period.sourceRef}`,
      filed_on: period.filedOn,
    });
    return value;
  }

  /** Period ends read, newest first. */
  periodEnds(): string[] {
    return (['current', 'prior', 'prior2'] as const).flatMap((role) =>
      this.inputs.some((i) => i.period === role) ? [this.periods[role]!.periodEnd] : [],
    );
  }

  private noteUsed(key: string, used: FigureUsed): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.inputs.push(used);
  }

  private noteMissing(missing: MissingFigure, key: string): void {
    if (this.seen.has(`missing|${key}`)) return;
    this.seen.add(`missing|${key}`);
    this.missing.push(missing);
  }
}

function describeRole(role: PeriodRole): string {
  return role === 'current' ? 'current' : role === 'prior' ? 'year-earlier' : 'two-years-earlier';
}

/** A quotient, or null when either side is unknown or the denominator is zero. */
export function ratio(numerator: number | null, denominator: number | null): number | null {
  if (numerator === null || denominator === null || denominator === 0) return null;
  return numerator / denominator;
}

/**
 * Rounds away binary floating-point noise (10 decimals) before a threshold comparison, so a
 * score that is exactly at a published cut-off compares as the method states.
 */
export function settle(value: number): number {
  return Math.round(value * 1e10) / 1e10;
}

/** Display rounding of a score or component (4 decimals). */
export function display(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

/** Whether `value operator threshold` holds, on the settled value. */
export function holds(value: number, threshold: Pick<Threshold, 'operator' | 'value'>): boolean {
  const v = settle(value);
  switch (threshold.operator) {
    case '<':
      return v < threshold.value;
    case '<=':
      return v <= threshold.value;
    case '>':
      return v > threshold.value;
    case '>=':
      return v >= threshold.value;
  }
}

/** The reading of the first threshold that holds (thresholds are listed so that exactly one applies). */
export function readingOf(value: number, thresholds: readonly Threshold[]): string {
  const match = thresholds.find((t) => holds(value, t));
  if (!match) throw new Error(`no threshold covers ${value}`);
  return match.reading;
}

interface Outcome<C> {
  method: MethodRef;
  reader: FigureReader;
  thresholds: Threshold[];
  notes?: string[];
  components: Partial<C>;
  /** Components that are null by design (not part of this variant), never reported as undefined. */
  unused?: readonly string[];
}

/** The finished score: ok with its reading when nothing was missing, else insufficient_data naming what was. */
export function finish<C>(outcome: Outcome<C>, value: number | null): ScoreResult<C> {
  const base = {
    method: outcome.method,
    periods: outcome.reader.periodEnds(),
    inputs: outcome.reader.inputs,
    thresholds: outcome.thresholds,
    notes: outcome.notes ?? [],
  };
  if (value === null || outcome.reader.missing.length > 0) {
    const undefinedParts = Object.entries(outcome.components as Record<string, unknown>)
      .filter(([k, v]) => v === null && !(outcome.unused ?? []).includes(k))
      .map(([k]) => k);
    const missing: MissingFigure[] =
      outcome.reader.missing.length > 0
        ? outcome.reader.missing
        : [
            {
              field: 'ratio',
              period: 'current',
              period_end: base.periods[0] ?? null,
              reason: `undefined (a zero denominator): ${undefinedParts.join(', ') || 'the score'}`,
            },
          ];
    return {
      status: 'insufficient_data',
      value: null,
      reading: null,
      ...base,
      missing,
      components: outcome.components,
    } satisfies ScoreInsufficient<C>;
  }
  return {
    status: 'ok',
    value: display(value),
    reading: readingOf(value, outcome.thresholds),
    ...base,
    components: outcome.components as C,
  } satisfies ScoreOk<C>;
}
