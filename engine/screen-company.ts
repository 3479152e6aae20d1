/**
 * The engine's entry point: one call screens one company on one date against all ten
 * frameworks. Pure and deterministic: no I/O, no clock (the date comes in the input).
 */
import { computeConsensus } from './consensus.ts';
import { dataQualityNotes } from './data-quality.ts';
import { isIsoDate } from './dates.ts';
import { screenExclusions } from './faith/screen-exclusions.ts';
import { BRI_VERSIONS } from './faith/christian-bri.ts';
import { USCCB_VERSIONS } from './faith/catholic-usccb.ts';
import { screenHalakhic } from './faith/jewish-halakhic.ts';
import { LDS_VERSIONS } from './faith/lds-mormon.ts';
import { FRAMEWORK_IDS, type FrameworkId, type ShariahFrameworkId } from './frameworks.ts';
import type { ScreeningInput } from './inputs.ts';
import { deriveMadhhabViews } from './madhhab-views.ts';
import { purificationProxy } from './proxies.ts';
import type { FrameworkResult, Provenance, Purification, ScreeningResult } from './result-types.ts';
import { buildScreenContext, type ScreenContext } from './screen-context.ts';
import { SHARIAH_PROHIBITED_UNION_IDX, SHARIAH_VERSIONS } from './shariah/index-of-versions.ts';
import { dividendRatioPerShare, impermissibleIncomePerShare, nonPermissibleIncomeRatio } from './shariah/purification.ts';
import { screenShariah, type BusinessScreen } from './shariah/screen-shariah.ts';
import { ENGINE_REVISION_DATE, ENGINE_VERSION, eraFor } from './version.ts';

function headlinePurification(ctx: ScreenContext): Purification {
  const npi = nonPermissibleIncomeRatio(ctx, SHARIAH_PROHIBITED_UNION_IDX);
  const byDividend = dividendRatioPerShare(ctx, npi);
  const byIncome = impermissibleIncomePerShare(ctx, npi);
  let perShare: number | null = null;
  let method: Purification['method'] = null;
  if (byIncome !== null) {
    perShare = byIncome;
    method = 'impermissible_income_per_share';
  }
  if (byDividend !== null && (perShare === null || byDividend > perShare)) {
    perShare = byDividend;
    method = 'dividend_ratio';
  }
  return {
    per_share: perShare,
    method,
    dividend_ratio_per_share: byDividend,
    impermissible_income_per_share: byIncome,
    non_permissible_income_ratio: npi,
    currency: ctx.fundamentals?.currency ?? null,
    ...purificationProxy(ctx.fundamentals),
  };
}

function provenance(input: ScreeningInput): Provenance {
  const f = input.fundamentals;
  return {
    filing: f === null ? null : { source_ref: f.sourceRef, period_end: f.periodEnd, filed_on: f.filedOn },
    price_date: input.marketCap.spotPriceDate,
    market_cap_months_24: input.marketCap.months24,
    market_cap_months_36: input.marketCap.months36,
    exposures: input.exposures.map((e) => ({
      activity: e.activity,
      as_of: e.asOf,
      source_ref: e.sourceRef,
      involvement: e.involvement ?? null,
    })),
    data_source: input.dataSource,
    synthetic: input.synthetic,
  };
}

/** The faith frameworks (exclusion tables and the halakhic grounds): they read no figure a price moves. */
export type FaithFrameworkId = 'christian_bri' | 'catholic_usccb' | 'jewish_halakhic' | 'lds_mormon';

/** Computes a faith framework's result, or hands back one it knows equals it (`SeriesScreener`). */
export type FaithScreen = (id: FaithFrameworkId, ctx: ScreenContext, compute: () => FrameworkResult) => FrameworkResult;

/** Computes a Shariah methodology's result, or hands back one it knows equals it (`SeriesScreener`). */
export type ShariahScreen = (id: ShariahFrameworkId, ctx: ScreenContext, compute: () => FrameworkResult) => FrameworkResult;

/** Parts of a screen that may be handed back from an earlier, equal screen instead of computed (engine/screen-series.ts). */
export interface ScreenReuse {
  faith: FaithScreen;
  shariah: ShariahScreen;
  business: BusinessScreen;
}

const COMPUTE_ALL: ScreenReuse = {
  faith: (_id, _ctx, compute) => compute(),
  shariah: (_id, _ctx, compute) => compute(),
  business: (_v, _ctx, compute) => compute(),
};

function shariahResult(id: ShariahFrameworkId, ctx: ScreenContext, reuse: ScreenReuse): FrameworkResult {
  return reuse.shariah(id, ctx, () => screenShariah(id, SHARIAH_VERSIONS[id], ctx, reuse.business));
}

/**
 * Screen one company on `input.screeningDate` (`YYYY-MM-DD`) against all ten frameworks. By
 * default everything is computed; `reuse` may hand back equal parts of an earlier screen.
 */
export function screenCompany(input: ScreeningInput, reuse: ScreenReuse = COMPUTE_ALL): ScreeningResult {
  const { faith } = reuse;
  if (!isIsoDate(input.screeningDate)) {
    throw new RangeError(`screeningDate must be a calendar date written YYYY-MM-DD, got ${JSON.stringify(input.screeningDate)}`);
  }
  const ctx = buildScreenContext(input);
  const shariah: Record<ShariahFrameworkId, FrameworkResult> = {
    shariah_aaoifi: shariahResult('shariah_aaoifi', ctx, reuse),
    shariah_djim: shariahResult('shariah_djim', ctx, reuse),
    shariah_sp: shariahResult('shariah_sp', ctx, reuse),
    shariah_ftse: shariahResult('shariah_ftse', ctx, reuse),
    shariah_msci: shariahResult('shariah_msci', ctx, reuse),
  };
  const frameworks: Partial<Record<FrameworkId, FrameworkResult>> = {
    ...shariah,
    christian_bri: faith('christian_bri', ctx, () => screenExclusions('christian_bri', BRI_VERSIONS, ctx)),
    catholic_usccb: faith('catholic_usccb', ctx, () => screenExclusions('catholic_usccb', USCCB_VERSIONS, ctx)),
    jewish_halakhic: faith('jewish_halakhic', ctx, () => screenHalakhic(ctx)),
    lds_mormon: faith('lds_mormon', ctx, () => screenExclusions('lds_mormon', LDS_VERSIONS, ctx)),
  };
  frameworks.service_consensus = computeConsensus(frameworks);
  const purification = headlinePurification(ctx);
  const listing = input.listing;
  const mc = input.marketCap;
  return {
    engine_version: ENGINE_VERSION,
    engine_revision_date: ENGINE_REVISION_DATE,
    era: eraFor(input.screeningDate),
    screening_date: input.screeningDate,
    market: listing.market,
    ticker: listing.ticker,
    company_name: listing.name,
    frameworks,
    frameworks_returned: [...FRAMEWORK_IDS],
    ratios: ctx.ratios.values,
    market_cap: { spot: mc.spot, avg_24m: mc.avg24m, avg_36m: mc.avg36m, currency: listing.currency },
    purification,
    purification_per_share: purification.per_share,
    madhhab_views: deriveMadhhabViews(shariah),
    data_quality: dataQualityNotes(ctx),
    provenance: provenance(input),
  };
}
