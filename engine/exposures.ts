/**
 * Per-screen index of business-activity exposures. An activity with no exposure row takes the
 * company's SIC code as evidence when the code names it as the primary business; otherwise it
 * counts as 0 only when the company's activities are covered by some evidence (`coverage`).
 * An exposure that is stale, dated after the screening date or outside 0..1 is unusable and
 * makes the checks that need it `insufficient_data` (unless another usable figure already
 * fails them). See docs/frameworks/README.md, "Business-activity evidence".
 */
import { activityOfSic, doubtOfSic, isSicCode, type IndustryDoubt } from './industry-codes.ts';
import { ACTIVITY_CODES, type ActivityCode, type ActivityExposure, type ListingMeta } from './inputs.ts';

export type ExposureState = 'none' | 'ok' | 'industry_code' | 'stale' | 'after_screening_date' | 'invalid';

/**
 * The revenue share an industry-code classification stands for: the SIC code names the primary
 * business, so at least half of it (a lower bound: every limit it is compared with is below it).
 */
export const PRIMARY_BUSINESS_SHARE = 0.5;

/**
 * How well the company's activities are covered when no row reports a screened activity:
 * `reviewed` (a source reviewed it and found none), `vendor` (a vendor or the sample reports
 * exposures for this company), `industry_code` (a clean SIC class), `none` (no evidence).
 */
export type CoverageLevel = 'reviewed' | 'vendor' | 'industry_code' | 'none';

export interface ActivityCoverage {
  level: CoverageLevel;
  /** Prose naming the evidence, for reasons. */
  evidence: string;
  /** At the industry-code level: activities the clean class leaves in doubt (docs/data/activities.md). */
  doubt: IndustryDoubt | null;
}

interface CoverageFacts {
  listing: Pick<ListingMeta, 'sic'>;
  reviewedOn: string | null;
}

const ACTIVITY_INDEX: ReadonlyMap<string, number> = new Map(ACTIVITY_CODES.map((a, i) => [a, i]));

/** Position of an activity code in `ACTIVITY_CODES` (tables resolve this once, at load). */
export function activityIndex(activity: ActivityCode): number {
  const i = ACTIVITY_INDEX.get(activity);
  if (i === undefined) throw new RangeError(`unknown activity code: ${activity}`);
  return i;
}

/** Indexes of companies with no exposure rows and no review, shared per SIC code (never mutated). */
const BY_SIC_ONLY = new Map<string | null, ExposureIndex>();

export class ExposureIndex {
  /** Index for one screen; shared per SIC code when nothing is reported and nothing reviewed. */
  static of(exposures: readonly ActivityExposure[], screeningDate: string, staleBefore: string, facts: CoverageFacts): ExposureIndex {
    if (exposures.length > 0 || facts.reviewedOn !== null) return new ExposureIndex(exposures, screeningDate, staleBefore, facts);
    const sic = facts.listing.sic;
    let shared = BY_SIC_ONLY.get(sic);
    if (shared === undefined) {
      shared = new ExposureIndex([], '', '', facts);
      if (BY_SIC_ONLY.size < 20_000) BY_SIC_ONLY.set(sic, shared);
    }
    return shared;
  }

  /** Revenue share (0..1) per activity index; 0 when none reported or unusable. */
  readonly shares: Float64Array;
  readonly states: ExposureState[];
  readonly sources: (ActivityExposure | undefined)[];
  readonly coverage: ActivityCoverage;

  constructor(exposures: readonly ActivityExposure[], screeningDate: string, staleBefore: string, facts: CoverageFacts) {
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
    const industry = activityOfSic(facts.listing.sic);
    if (industry !== null) {
      const i = ACTIVITY_INDEX.get(industry.activity)!;
      if (this.states[i] === 'none') {
        this.states[i] = 'industry_code';
        this.shares[i] = PRIMARY_BUSINESS_SHARE;
        this.sources[i] = {
          activity: industry.activity,
          revenueShare: PRIMARY_BUSINESS_SHARE,
          asOf: screeningDate,
          sourceRef: `sic:${industry.sic}`,
        };
      }
    }
    this.coverage = coverageOf(exposures, facts, staleBefore);
  }

  /** True when the activity's figure can be used (reported and valid, classified by industry code, or covered as none). */
  usable(i: number): boolean {
    const s = this.states[i];
    return s === 'ok' || s === 'industry_code' || (s === 'none' && this.coverage.level !== 'none');
  }

  /** Why an unusable activity's figure cannot be used, in prose. */
  unusableText(i: number): string {
    const s = this.states[i]!;
    return s === 'none' ? this.coverage.evidence : describeExposureState(s);
  }
}

function coverageOf(exposures: readonly ActivityExposure[], facts: CoverageFacts, staleBefore: string): ActivityCoverage {
  if (facts.reviewedOn !== null && facts.reviewedOn >= staleBefore) {
    return { level: 'reviewed', evidence: `reviewed on ${facts.reviewedOn}: no screened activity`, doubt: null };
  }
  if (exposures.some((e) => (e.evidence ?? 'reported') === 'reported')) {
    return { level: 'vendor', evidence: "the data source reports this company's activity exposures", doubt: null };
  }
  const sic = facts.listing.sic;
  if (isSicCode(sic) && activityOfSic(sic) === null) {
    return {
      level: 'industry_code',
      evidence: `industry code only: SIC ${sic} names no screened activity, and no filing concept names one`,
      doubt: doubtOfSic(sic),
    };
  }
  return {
    level: 'none',
    evidence: 'no business-activity evidence: no exposure rows, no revenue concept naming an activity, no SIC code, no curated entry',
    doubt: null,
  };
}

const STATE_TEXT: Record<ExposureState, string> = {
  none: 'none reported',
  ok: 'reported',
  industry_code: 'classified as the primary business by its SIC code',
  stale: 'the exposure figure is older than the staleness limit',
  after_screening_date: 'the exposure figure is dated after the screening date',
  invalid: 'the exposure figure is not a share in 0..1',
};

/** Prose for an exposure state. */
export function describeExposureState(state: ExposureState): string {
  return STATE_TEXT[state];
}
