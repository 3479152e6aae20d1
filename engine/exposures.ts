/**
 * Per-screen index of business-activity exposures. An activity with no exposure row takes the
 * company's SIC code as evidence when the code names it as the primary business; otherwise it
 * counts as 0 only when the company's activities are covered by some fresh evidence
 * (`coverage`), and stays in doubt when the company's industry class may carry it. An exposure
 * that is stale, dated after the screening date or outside 0..1 is unusable and makes the
 * checks that need it `insufficient_data` (unless another usable figure already fails them).
 * See docs/frameworks/README.md, "Business-activity evidence".
 */
import { activityOfSic, industryDoubt, type IndustryDoubt } from './industry-codes.ts';
import { ACTIVITY_CODES, type ActivityCode, type ActivityExposure, type ListingMeta, type RevenueAccounting } from './inputs.ts';
import { monthsBetween } from './dates.ts';
import { formatPercent } from './format.ts';

/**
 * `retired`: the latest figure is a stale one of a revenue concept the taxonomy has retired
 * (`retired_concept`): the activity existed then, and no later figure can exist in that concept.
 * It can show a breach, never a pass (`retiredStillCarried`).
 */
export type ExposureState = 'none' | 'ok' | 'industry_code' | 'stale' | 'retired' | 'after_screening_date' | 'invalid';

/**
 * The revenue share an industry-code classification stands for: the SIC code names the primary
 * business, so at least half of it (a lower bound: every limit it is compared with is below it).
 */
export const PRIMARY_BUSINESS_SHARE = 0.5;

/**
 * How well the company's activities are covered when no row reports a screened activity:
 * `reviewed` (a source reviewed it and found none), `vendor` (a vendor or the sample reports
 * fresh exposures for this company), `filing` (the filing's revenue members account for all of
 * revenue), `industry_code` (a class of the reviewed table), `none` (no fresh evidence).
 */
export type CoverageLevel = 'reviewed' | 'vendor' | 'filing' | 'industry_code' | 'none';

/**
 * Share of revenue the filing's members must account for to settle an industry class's doubt:
 * the members may leave 1 % unnamed (rounding, eliminations), no more.
 */
export const FULLY_ACCOUNTED_SHARE = 0.99;

export interface ActivityCoverage {
  level: CoverageLevel;
  /** Prose naming the evidence, for reasons. */
  evidence: string;
  /** At the industry-code level: activities the class may carry, in doubt (docs/data/activities.md). */
  doubt: IndustryDoubt | null;
}

interface CoverageFacts {
  listing: Pick<ListingMeta, 'sic'>;
  reviewedOn: string | null;
  revenueAccounted?: RevenueAccounting | null;
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
    if (exposures.length > 0 || facts.reviewedOn !== null || (facts.revenueAccounted ?? null) !== null)
      return new ExposureIndex(exposures, screeningDate, staleBefore, facts);
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
  private readonly screeningDate: string;
  private readonly sic: string | null;

  constructor(exposures: readonly ActivityExposure[], screeningDate: string, staleBefore: string, facts: CoverageFacts) {
    this.screeningDate = screeningDate;
    this.sic = facts.listing.sic;
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
        this.states[i] = e.evidence === 'retired_concept' ? 'retired' : 'stale';
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
    this.coverage = coverageOf(exposures, facts, screeningDate, staleBefore);
  }

  /**
   * For a `retired` figure: true when the class the company files under today still names or
   * carries the activity, so a breach its last figure shows is decided, not merely in doubt (no
   * later figure can exist in a retired concept).
   */
  retiredStillCarried(i: number): boolean {
    return this.states[i] === 'retired' && classCarries(this.sic, ACTIVITY_CODES[i]!);
  }

  /** True when the company's industry class may carry the activity and no fresh evidence settles it. */
  inDoubt(activity: ActivityCode): boolean {
    return this.coverage.doubt?.activities.includes(activity) === true && this.states[activityIndex(activity)] === 'none';
  }

  /** True when the activity's figure can be used (reported and valid, classified by industry code, or covered as none). */
  usable(i: number): boolean {
    const s = this.states[i];
    return s === 'ok' || s === 'industry_code' || (s === 'none' && this.coverage.level !== 'none');
  }

  /** Why an unusable activity's figure cannot be used, in prose (what was found and how old). */
  unusableText(i: number): string {
    const s = this.states[i]!;
    return s === 'none' ? this.coverage.evidence : unusableRowText(this.sources[i]!, s, this.screeningDate);
  }
}

/** True when the company's industry class names the activity or may carry it. */
function classCarries(sic: string | null, activity: ActivityCode): boolean {
  return activityOfSic(sic)?.activity === activity || industryDoubt(sic)?.activities.includes(activity) === true;
}

function isFresh(asOf: string, screeningDate: string, staleBefore: string): boolean {
  return asOf >= staleBefore && asOf <= screeningDate;
}

/** "dated 2014-03-31, 11 years old" for evidence outside its freshness window. */
export function ageText(asOf: string, screeningDate: string): string {
  if (asOf > screeningDate) return `dated ${asOf}, after the screening date`;
  const months = monthsBetween(asOf, screeningDate);
  return `dated ${asOf}, ${months >= 24 ? `${Math.floor(months / 12)} years` : `${months} months`} old`;
}

function coverageOf(
  exposures: readonly ActivityExposure[],
  facts: CoverageFacts,
  screeningDate: string,
  staleBefore: string,
): ActivityCoverage {
  if (facts.reviewedOn !== null && isFresh(facts.reviewedOn, screeningDate, staleBefore)) {
    return { level: 'reviewed', evidence: `reviewed on ${facts.reviewedOn}: no screened activity`, doubt: null };
  }
  const found: string[] = [];
  if (facts.reviewedOn !== null) found.push(`a review ${ageText(facts.reviewedOn, screeningDate)}`);
  let latestVendor: string | null = null;
  for (const e of exposures) {
    if ((e.evidence ?? 'reported') !== 'reported') continue;
    if (isFresh(e.asOf, screeningDate, staleBefore)) {
      return { level: 'vendor', evidence: "the data source reports fresh exposures for this company's activities", doubt: null };
    }
    if (latestVendor === null || e.asOf > latestVendor) latestVendor = e.asOf;
  }
  if (latestVendor !== null) found.push(`vendor exposure rows, the latest ${ageText(latestVendor, screeningDate)}`);
  const accounted = facts.revenueAccounted ?? null;
  if (accounted !== null) {
    const fresh = isFresh(accounted.asOf, screeningDate, staleBefore);
    if (fresh && accounted.share >= FULLY_ACCOUNTED_SHARE) {
      return {
        level: 'filing',
        evidence: `the filing's revenue lines account for ${(accounted.share * 100).toFixed(1)}% of revenue (${accounted.sourceRef}, ${accounted.asOf})`,
        doubt: null,
      };
    }
    found.push(
      fresh
        ? `revenue lines accounting for only ${(accounted.share * 100).toFixed(1)}% of revenue (${accounted.sourceRef})`
        : `revenue lines ${ageText(accounted.asOf, screeningDate)} (${accounted.sourceRef})`,
    );
  }
  const sic = facts.listing.sic;
  const industry = industryDoubt(sic);
  if (industry !== null && activityOfSic(sic) === null) {
    const before = found.length > 0 ? `; beyond the freshness window: ${found.join('; ')}` : '';
    return {
      level: 'industry_code',
      evidence: `industry code only: SIC ${industry.sic} (${industry.title}) names no screened activity as the primary business${before}`,
      doubt: industry,
    };
  }
  if (sic !== null && industry === null) found.push(`SIC ${sic}, a code the reviewed industry table does not cover`);
  return {
    level: 'none',
    evidence:
      found.length > 0
        ? `no fresh business-activity evidence (found only: ${found.join('; ')})`
        : 'no business-activity evidence: no exposure rows, no revenue figure naming an activity, no SIC code, no curated entry',
    doubt: null,
  };
}

const STATE_TEXT: Record<ExposureState, string> = {
  none: 'none reported',
  ok: 'reported',
  industry_code: 'classified as the primary business by its SIC code',
  stale: 'the exposure figure is older than its freshness window',
  retired: 'the last figure of a revenue concept the taxonomy has since retired is older than its freshness window',
  after_screening_date: 'the exposure figure is dated after the screening date',
  invalid: 'the exposure figure is not a share in 0..1',
};

/** Prose for an exposure state. */
export function describeExposureState(state: ExposureState): string {
  return STATE_TEXT[state];
}

/**
 * Why a row's figure cannot be used, saying what was found and how old it is (expired evidence
 * counts as none, but the reason names it).
 */
export function unusableRowText(src: ActivityExposure, state: ExposureState, screeningDate: string): string {
  if (state !== 'stale' && state !== 'retired') return describeExposureState(state);
  const found = `${formatPercent(src.revenueShare)} of revenue (${src.sourceRef})`;
  const retired =
    state === 'retired' ? ', the last figure of a revenue concept the taxonomy has since retired (the activity existed then)' : '';
  return `the latest figure, ${found}${retired}, is ${ageText(src.asOf, screeningDate)}: beyond its freshness window`;
}
