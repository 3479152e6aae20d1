/**
 * Halakhic investing. Four grounds, each `questionable` rather than excluded because the
 * authorities differ on a minority shareholder's responsibility for a listed company:
 * - ribbit (interest): relevant when the company lends at interest, or is listed in Tel Aviv
 *   (where owners and borrowers are predominantly Jewish); a heter iska resolves it;
 * - Shabbat operation and ownership;
 * - chametz over Pesach (proxied by alcohol revenue: beer and grain spirits);
 * - trading in forbidden foods (pork, other non-kosher food).
 * The Israeli "kosher company" practice (heter iska and no Shabbat operation) is noted.
 * This framework never returns `non_compliant`. See docs/frameworks/jewish_halakhic.md.
 */
import { activityIndex, describeExposureState } from '../exposures.ts';
import { versionInForce, assertChronological } from '../methodology-versions.ts';
import { notInForce } from '../not-in-force.ts';
import type { FrameworkResult, Reason } from '../result-types.ts';
import type { ScreenContext } from '../screen-context.ts';
import { combineReasons } from '../status.ts';
import { defineExclusionVersion, revenueBelow, type ExclusionVersion } from './exclusion-types.ts';
import { exclusionChecks } from './screen-exclusions.ts';

const RIBBIT_SOURCE =
  "Shulchan Arukh, Yoreh De'ah 159–177 (ribbit; heter iska at 177); Igrot Moshe, Yoreh De'ah 2:62–63 on corporations (commonly cited)";
const SHABBAT_SOURCE = 'Shulchan Arukh, Orach Chayim 245–246 (partnership with a non-Jew; work on Shabbat)';
const CHAMETZ_SOURCE = 'Shulchan Arukh, Orach Chayim 448 (chametz owned over Pesach); sale of chametz (mechirat chametz)';
const FOODS_SOURCE = "Shulchan Arukh, Yoreh De'ah 117 (commerce in forbidden foods)";
const TEL_AVIV_MIC = 'XTAE';
const FINANCE = activityIndex('conventional_finance');

export const HALAKHIC_VERSIONS: readonly ExclusionVersion[] = [
  defineExclusionVersion({
    framework: 'jewish_halakhic',
    version: 'halakhic-1',
    effectiveFrom: '1900-01-01',
    effectiveFromConfirmed: false,
    source: 'Halakhic grounds as codified in the Shulchan Arukh; contemporary responsa differ',
    rules: [
      revenueBelow('alcohol', 0.05, 'questionable', 'pass', 'Chametz over Pesach', `${CHAMETZ_SOURCE} (alcohol as proxy; 5% materiality modelled)`),
      revenueBelow('pork', 0.05, 'questionable', 'pass', 'Trading in forbidden foods', `${FOODS_SOURCE} (5% materiality modelled)`),
      revenueBelow('non_kosher_food', 0.05, 'questionable', 'pass', 'Trading in forbidden foods', `${FOODS_SOURCE} (5% materiality modelled)`),
    ],
    notAssessed: [{ ground: 'Chametz in other food businesses', why: 'no chametz activity code; only alcohol is used as a proxy' }],
  }),
];

assertChronological(HALAKHIC_VERSIONS);

function ribbitCheck(ctx: ScreenContext): Reason {
  const ex = ctx.exposures;
  const listing = ctx.input.listing;
  const financeState = ex.states[FINANCE]!;
  if (financeState === 'none' && ex.coverage.level === 'none') {
    return {
      code: 'jewish_halakhic.ribbit',
      result: 'insufficient_data',
      message: `Ribbit: whether the company lends at interest is unknown (${ex.coverage.evidence}).`,
      metric: 'activity.conventional_finance',
      source: RIBBIT_SOURCE,
    };
  }
  if (financeState !== 'none' && financeState !== 'ok' && financeState !== 'industry_code') {
    return {
      code: 'jewish_halakhic.ribbit',
      result: 'insufficient_data',
      message: `Ribbit: conventional finance revenue cannot be used: ${describeExposureState(financeState)}.`,
      metric: 'activity.conventional_finance',
      source: RIBBIT_SOURCE,
    };
  }
  const lends = ex.shares[FINANCE]! > 0;
  const israeli = listing.exchangeMic === TEL_AVIV_MIC;
  if (!lends && !israeli) {
    return {
      code: 'jewish_halakhic.ribbit',
      result: 'pass',
      message: 'Ribbit: no interest-based lending business and not an Israeli listing; most authorities do not treat a shareholder as party to the company’s loans.',
      source: RIBBIT_SOURCE,
    };
  }
  const why = lends ? 'the company lends at interest' : 'an Israeli listing (Jewish owners and counterparties)';
  if (listing.heterIska === true) {
    return { code: 'jewish_halakhic.ribbit', result: 'pass', message: `Ribbit: ${why}, and it operates under a heter iska.`, source: RIBBIT_SOURCE };
  }
  if (listing.heterIska === null) {
    return {
      code: 'jewish_halakhic.ribbit',
      result: 'insufficient_data',
      message: `Ribbit: ${why}, and whether it operates under a heter iska is unknown.`,
      metric: 'listing.heter_iska',
      source: RIBBIT_SOURCE,
    };
  }
  return {
    code: 'jewish_halakhic.ribbit',
    result: 'questionable',
    message: `Ribbit: ${why} without a heter iska; authorities differ on a minority shareholder's responsibility.`,
    source: RIBBIT_SOURCE,
  };
}

function shabbatCheck(ctx: ScreenContext): Reason {
  const operates = ctx.input.listing.operatesOnShabbat;
  if (operates === null) {
    return {
      code: 'jewish_halakhic.shabbat',
      result: 'insufficient_data',
      message: 'Shabbat: whether the business operates on Shabbat is unknown.',
      metric: 'listing.operates_on_shabbat',
      source: SHABBAT_SOURCE,
    };
  }
  return operates
    ? {
        code: 'jewish_halakhic.shabbat',
        result: 'questionable',
        message: 'Shabbat: the business operates on Shabbat; many authorities are lenient for a small holding in a listed company, others are not.',
        source: SHABBAT_SOURCE,
      }
    : { code: 'jewish_halakhic.shabbat', result: 'pass', message: 'Shabbat: the business does not operate on Shabbat.', source: SHABBAT_SOURCE };
}

/** Screen one company against the halakhic grounds (never stricter than `questionable`). */
export function screenHalakhic(ctx: ScreenContext): FrameworkResult {
  const v = versionInForce(HALAKHIC_VERSIONS, ctx.input.screeningDate);
  if (v === null) return notInForce('jewish_halakhic', ctx.input.screeningDate);
  const reasons: Reason[] = [ribbitCheck(ctx), shabbatCheck(ctx)];
  exclusionChecks(v, ctx, reasons);
  for (const r of v.notAssessedReasons) reasons.push(r);
  const listing = ctx.input.listing;
  if (listing.exchangeMic === TEL_AVIV_MIC) {
    const kosher = listing.heterIska === true && listing.operatesOnShabbat === false;
    reasons.push({
      code: 'jewish_halakhic.kosher_company',
      result: 'info',
      message: kosher
        ? 'Meets the Israeli "kosher company" practice: a heter iska and no Shabbat operation.'
        : 'Does not (or is not known to) meet the Israeli "kosher company" practice: a heter iska and no Shabbat operation.',
      source: 'Israeli kosher-company certification practice',
    });
  }
  return {
    id: 'jewish_halakhic',
    status: combineReasons(reasons),
    score: null,
    methodology_version: v.version,
    methodology_effective_from: v.effectiveFrom,
    reasons,
    purification: null,
  };
}
