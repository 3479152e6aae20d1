/**
 * Per-screen index of business-activity exposures. An activity with no exposure counts as
 * 0 (the input contract: "absent = none reported"); an exposure that is stale, dated after
 * the screening date or outside 0..1 is unusable and makes the checks that need it
 * `insufficient_data` (unless another usable figure already fails them).
 */
import { ACTIVITY_CODES, type ActivityCode, type ActivityExposure } from './inputs.ts';

export type ExposureState = 'none' | 'ok' | 'stale' | 'after_screening_date' | 'invalid';

const ACTIVITY_INDEX: ReadonlyMap<string, number> = new Map(ACTIVITY_CODES.map((a, i) => [a, i]));

/** Position of an activity code in `ACTIVITY_CODES` (tables resolve this once, at load). */
export function activityIndex(activity: ActivityCode): number {
  const i = ACTIVITY_INDEX.get(activity);
  if (i === undefined) throw new RangeError(`unknown activity code: ${activity}`);
  return i;
}

export class ExposureIndex {
  /** Shared index for the common case of no exposures at all (never mutated). */
  static readonly EMPTY: ExposureIndex = new ExposureIndex([], '', '');

  /** Index for one screen; reuses EMPTY when nothing is reported. */
  static of(exposures: readonly ActivityExposure[], screeningDate: string, staleBefore: string): ExposureIndex {
    return exposures.length === 0 ? ExposureIndex.EMPTY : new ExposureIndex(exposures, screeningDate, staleBefore);
  }

  /** Revenue share (0..1) per activity index; 0 when none reported or unusable. */
  readonly shares: Float64Array;
  readonly states: ExposureState[];
  readonly sources: (ActivityExposure | undefined)[];

  constructor(exposures: readonly ActivityExposure[], screeningDate: string, staleBefore: string) {
    const n = ACTIVITY_CODES.length;
    this.shares = new Float64Array(n);
    this.states = new Array<ExposureState>(n).fill('none');
    this.sources = new Array<ActivityExposure | undefined>(n);
    for (const e of exposures) {
      const i = ACTIVITY_INDEX.get(e.activity);
      if (i === undefined) continue; // codes outside the contract are ignored, never guessed at
      const previous = this.sources[i];
      if (previous !== undefined && previous.asOf >= e.asOf) continue; // keep the latest
      this.sources[i] = e;
      const share = e.revenueShare;
      if (!Number.isFinite(share) || share < 0 || share > 1) {
        this.states[i] = 'invalid';
        this.shares[i] = 0;
      } else if (e.asOf > screeningDate) {
        this.states[i] = 'after_screening_date';
        this.shares[i] = 0;
      } else if (e.asOf < staleBefore) {
        this.states[i] = 'stale';
        this.shares[i] = 0;
      } else {
        this.states[i] = 'ok';
        this.shares[i] = share;
      }
    }
  }

  /** True when the activity's figure can be used (reported and valid, or not reported = 0). */
  usable(i: number): boolean {
    const s = this.states[i];
    return s === 'none' || s === 'ok';
  }
}

const STATE_TEXT: Record<ExposureState, string> = {
  none: 'none reported',
  ok: 'reported',
  stale: 'the exposure figure is older than the staleness limit',
  after_screening_date: 'the exposure figure is dated after the screening date',
  invalid: 'the exposure figure is not a share in 0..1',
};

/** Prose for an exposure state. */
export function describeExposureState(state: ExposureState): string {
  return STATE_TEXT[state];
}
