/**
 * Screening one company on many dates in a row (a backfill: every month end since 2009). From
 * one date to the next only price-derived figures usually move, and the faith frameworks read
 * none of them: their result is a function of the methodology version in force, the listing
 * and the exposure index. While those three are equal to the previous date's, the previous
 * result is handed back (the same object), so it is neither recomputed nor, by the snapshot
 * writer, serialised again. Likewise a Shariah version's business-activity reasons, which read
 * only the version and the exposure index, and the whole result of a Shariah version that reads
 * no price (FTSE, MSCI) while its filing, ratios and exposures are equal. Everything else is
 * screened afresh. See docs/pipelines.md, "Backfill: reuse across dates".
 */
import type { ExposureIndex } from './exposures.ts';
import { BRI_VERSIONS } from './faith/christian-bri.ts';
import { USCCB_VERSIONS } from './faith/catholic-usccb.ts';
import type { ExclusionVersion } from './faith/exclusion-types.ts';
import { HALAKHIC_NOT_JEWISH_CONTROLLED_VERSIONS, HALAKHIC_VERSIONS } from './faith/jewish-halakhic.ts';
import { LDS_VERSIONS } from './faith/lds-mormon.ts';
import type { ShariahFrameworkId } from './frameworks.ts';
import type { ActivityExposure, Fundamentals, ListingMeta, ScreeningInput } from './inputs.ts';
import { versionInForce } from './methodology-versions.ts';
import { ratioReadsPrice, type RatioSet } from './ratios.ts';
import type { FrameworkResult, RatioKey, Reason, ScreeningResult } from './result-types.ts';
import { screenCompany, type FaithFrameworkId, type FaithScreen, type ScreenReuse, type ShariahScreen } from './screen-company.ts';
import { SHARIAH_VERSIONS } from './shariah/index-of-versions.ts';
import type { BusinessScreen } from './shariah/screen-shariah.ts';
import type { ShariahVersion } from './shariah/rule-types.ts';

/** The version tables each faith framework may pick from (the halakhic one by who controls the company). */
const FAITH_VERSIONS: Record<FaithFrameworkId, ReadonlyArray<readonly ExclusionVersion[]>> = {
  christian_bri: [BRI_VERSIONS],
  catholic_usccb: [USCCB_VERSIONS],
  jewish_halakhic: [HALAKHIC_VERSIONS, HALAKHIC_NOT_JEWISH_CONTROLLED_VERSIONS],
  lds_mormon: [LDS_VERSIONS],
};

interface Remembered {
  versions: ReadonlyArray<ExclusionVersion | null>;
  listing: ListingMeta;
  exposures: ExposureIndex;
  result: FrameworkResult;
}

interface RememberedShariah {
  version: ShariahVersion;
  fundamentals: Fundamentals | null;
  ratios: RatioSet;
  exposures: ExposureIndex;
  result: FrameworkResult;
}

/**
 * The ratios a Shariah version's result reads (its rules' and the interest share, which the income
 * check and purification use), or null when it reads the price: a market-cap ratio or an averaging
 * window (whose month count it reports). A version that does not read the price (FTSE's and MSCI's
 * ratios are on total assets) gives the same result on every date of one filing.
 */
const priceFreeReads = new WeakMap<ShariahVersion, readonly RatioKey[] | null>();

function priceFreeRatios(v: ShariahVersion): readonly RatioKey[] | null {
  let keys = priceFreeReads.get(v);
  if (keys === undefined) {
    const read: RatioKey[] = [...v.ratioRules.map((rr) => rr.ratio), 'interest_income_to_revenue'];
    keys = v.averageWindow === null && !read.some(ratioReadsPrice) ? read : null;
    priceFreeReads.set(v, keys);
  }
  return keys;
}

/** Equal reads of the given ratios: each value, the cause of a missing one, its proven lower bound and its figures (by identity). */
function sameRatios(a: RatioSet, b: RatioSet, keys: readonly RatioKey[]): boolean {
  for (const k of keys) {
    if (a.values[k] !== b.values[k] || a.causes[k] !== b.causes[k] || a.atLeast[k] !== b.atLeast[k] || a.inputs?.[k] !== b.inputs?.[k])
      return false;
  }
  return true;
}

function sameFields<T extends object>(a: T | null | undefined, b: T | null | undefined): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return false;
  const keys = Object.keys(a) as Array<keyof T>;
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => a[k] === b[k]);
}

function sameSource(a: ActivityExposure | undefined, b: ActivityExposure | undefined): boolean {
  return sameFields(a, b);
}

/** Equal exposure indexes: every state, share and source field, and the coverage (a SIC-classified source carries the screening date). */
export function sameExposureIndex(a: ExposureIndex, b: ExposureIndex): boolean {
  if (a === b) return true;
  if (a.states.length !== b.states.length) return false;
  for (let i = 0; i < a.states.length; i++) {
    if (a.states[i] !== b.states[i] || !Object.is(a.shares[i], b.shares[i]) || !sameSource(a.sources[i], b.sources[i])) return false;
  }
  const [ca, cb] = [a.coverage, b.coverage];
  return ca.level === cb.level && ca.evidence === cb.evidence && JSON.stringify(ca.doubt) === JSON.stringify(cb.doubt);
}

/**
 * Screens the dates of a series (any order of companies and dates works; reuse happens between
 * consecutive screens of one company). The results are those of `screenCompany`, deep-equal.
 */
export class SeriesScreener {
  private readonly remembered = new Map<FaithFrameworkId, Remembered>();
  private readonly business = new Map<ShariahVersion, { exposures: ExposureIndex; reasons: readonly Reason[] }>();
  private readonly shariahRemembered = new Map<ShariahFrameworkId, RememberedShariah>();
  /** Faith and price-free Shariah results and Shariah business-activity reasons handed back instead of computed (for benchmarks and tests). */
  reused = 0;

  private readonly faith: FaithScreen = (id, ctx, compute) => {
    const versions = FAITH_VERSIONS[id].map((table) => versionInForce(table, ctx.input.screeningDate));
    const before = this.remembered.get(id);
    // Not in force: the result names the date, so it is computed each time (and cheap).
    const reusable = versions.every((v) => v !== null);
    if (
      reusable &&
      before !== undefined &&
      before.versions.every((v, i) => v === versions[i]) &&
      sameFields(before.listing, ctx.input.listing) &&
      sameExposureIndex(before.exposures, ctx.exposures)
    ) {
      this.reused += 1;
      return before.result;
    }
    const result = compute();
    if (reusable) this.remembered.set(id, { versions, listing: ctx.input.listing, exposures: ctx.exposures, result });
    else this.remembered.delete(id);
    return result;
  };

  /** A Shariah version's business-activity reasons read only the version and the exposure index. */
  private readonly businessReasons: BusinessScreen = (v, ctx, compute) => {
    const before = this.business.get(v);
    if (before !== undefined && sameExposureIndex(before.exposures, ctx.exposures)) {
      this.reused += 1;
      return before.reasons;
    }
    const reasons = compute();
    this.business.set(v, { exposures: ctx.exposures, reasons });
    return reasons;
  };

  /**
   * A Shariah result is handed back when its version reads no price and everything else it reads
   * is equal: the version in force, the usable filing (field by field; the filing decides its
   * reference and purification), the ratios it checks and the exposure index.
   */
  private readonly shariah: ShariahScreen = (id, ctx, compute) => {
    const version = versionInForce(SHARIAH_VERSIONS[id], ctx.input.screeningDate);
    const keys = version === null ? null : priceFreeRatios(version);
    if (version === null || keys === null) return compute();
    const before = this.shariahRemembered.get(id);
    if (
      before !== undefined &&
      before.version === version &&
      sameFields(before.fundamentals, ctx.fundamentals) &&
      sameRatios(before.ratios, ctx.ratios, keys) &&
      sameExposureIndex(before.exposures, ctx.exposures)
    ) {
      this.reused += 1;
      return before.result;
    }
    const result = compute();
    this.shariahRemembered.set(id, { version, fundamentals: ctx.fundamentals, ratios: ctx.ratios, exposures: ctx.exposures, result });
    return result;
  };

  private readonly reuse: ScreenReuse = { faith: this.faith, shariah: this.shariah, business: this.businessReasons };

  screen(input: ScreeningInput): ScreeningResult {
    return screenCompany(input, this.reuse);
  }
}
