/**
 * Halakhic investing for a small holding in a listed company (no say in its management). The
 * deciding fact for most grounds is whether the company is controlled by Jews: the prohibitions
 * bind Jews, and the poskim followed here (Igrot Moshe) do not make a minority shareholder the
 * owner or agent of a company under non-Jewish control. Control is reported
 * (`listing.jewishControlled`) or presumed from the issuer, never from the exchange (Israeli
 * companies list abroad): an issuer incorporated or with its business address in Israel is
 * presumed controlled by Jews (the Israeli kosher-company practice), an issuer of another known
 * domicile presumed not (the majority of owners and managers of companies outside Israel are not
 * Jews). With neither known, the screen runs both readings and decides only where they agree.
 * - Ribbit: between Jews only; a Jewish-controlled company needs a heter iska.
 * - Shabbat: work under non-Jewish management is the non-Jews' own; a Jewish-controlled
 *   company must not operate on Shabbat.
 * - Chametz over Pesach (alcohol as proxy) and trade in forbidden foods: Jewish-controlled
 *   companies by a 5% materiality line; others only when forbidden foods are their main trade.
 * - Pornography (producers, or 5% of revenue) excluded whoever controls the company; gambling
 *   (operators, or the main trade) questionable.
 * Real disagreements are `questionable`; a deciding fact that is unknown is `insufficient_data`.
 * See docs/frameworks/jewish_halakhic.md.
 */
import { versionInForce, assertChronological } from '../methodology-versions.ts';
import { notInForce } from '../not-in-force.ts';
import type { FrameworkResult, Reason } from '../result-types.ts';
import type { ScreenContext } from '../screen-context.ts';
import { combineReasons } from '../status.ts';
import { defineExclusionVersion, revenueBelow, type ExclusionRuleSpec, type ExclusionVersion } from './exclusion-types.ts';
import { exclusionChecks } from './screen-exclusions.ts';
import { ISRAEL, controlOf, controlReason } from './halakhic-control.ts';
import { foodTradeDoubt } from './halakhic-food.ts';

const HOLDING_SOURCE =
  'Igrot Moshe, Even HaEzer 1:7 (a small shareholder of a listed company is not a partner in its property, only entitled to its profits)';
const RIBBIT_SOURCE =
  "Shulchan Arukh, Yoreh De'ah 159:1 (interest with a non-Jew is permitted) and 177 (heter iska); Igrot Moshe, Yoreh De'ah 2:62–63 (corporations); " +
  HOLDING_SOURCE;
const SHABBAT_SOURCE =
  'Shulchan Arukh, Orach Chayim 245–246 (partnership with a non-Jew; work on Shabbat); Igrot Moshe, Orach Chayim 4:54 (management ' +
  'predominantly non-Jewish); Minchat Yitzchak 3:1';
const CHAMETZ_SOURCE = 'Shulchan Arukh, Orach Chayim 448 (chametz owned over Pesach); sale of chametz (mechirat chametz)';
const FOODS_SOURCE = "Shulchan Arukh, Yoreh De'ah 117 (commerce in forbidden foods)";
const FOODS_MAIN_TRADE_SOURCE =
  `${FOODS_SOURCE}; Pitchei Teshuvah YD 117:6 (permitted when forbidden foods are only part of the ` +
  `trade); Cheishev HaEifod 3:44 (strict for a company trading mainly in them)`;
const PORNOGRAPHY_SOURCE =
  'Leviticus 19:14 (lifnei iver) with Avodah Zarah 6b (it applies to helping a non-Jew transgress as well); Deuteronomy 23:10 ' +
  "with Avodah Zarah 20b and Shulchan Arukh, Even HaEzer 21:1 (guarding against lewd sights); the service's modelling: producers " +
  'at any share, others from 5% of revenue, whoever controls the company';
const GAMBLING_SOURCE =
  'Mishnah Sanhedrin 3:3 and Sanhedrin 24b (the dice player, not engaged in settling the world); Shulchan Arukh, Choshen Mishpat ' +
  '34:16 and 370:2–3 (with a non-Jew not theft, yet forbidden as idle pursuit); authorities differ on a passive holding: ' +
  "the service's modelling treats operators, or gambling as the main trade, as questionable";
const TEL_AVIV_MIC = 'XTAE';
const VERSION = 'halakhic-2';
const SOURCE =
  'Halakhic grounds as codified in the Shulchan Arukh, applied to listed shares by contemporary responsa (docs/frameworks/jewish_halakhic.md)';
const NOT_ASSESSED = [{ ground: 'Chametz in other food businesses', why: 'no chametz activity code; only alcohol is used as a proxy' }];

/** Forbidden foods as the company's main trade (more than half of revenue) for a company not controlled by Jews. */
function mainTrade(activity: 'pork' | 'non_kosher_food'): ExclusionRuleSpec {
  return {
    activity,
    threshold: 0.5,
    operator: '<=',
    onBreach: 'questionable',
    minor: 'pass',
    doubt: 'scholarly_disagreement',
    ground: 'Trading in forbidden foods',
    source: FOODS_MAIN_TRADE_SOURCE,
  };
}

/** Grounds that do not depend on who controls the company: what its own business is. */
function ownBusiness(): ExclusionRuleSpec[] {
  return [
    {
      ...revenueBelow('adult_entertainment', 0.05, 'fail', 'pass', 'Pornography', PORNOGRAPHY_SOURCE),
      direct: ['producer'],
    },
    {
      activity: 'gambling',
      threshold: 0.5,
      operator: '<=',
      onBreach: 'questionable',
      minor: 'pass',
      direct: ['producer'],
      doubt: 'scholarly_disagreement',
      ground: 'Gambling',
      source: GAMBLING_SOURCE,
    },
  ];
}

/** Rules for a company controlled by Jews: the company itself is bound. */
export const HALAKHIC_VERSIONS: readonly ExclusionVersion[] = [
  defineExclusionVersion({
    framework: 'jewish_halakhic',
    version: VERSION,
    effectiveFrom: '1900-01-01',
    effectiveFromConfirmed: false,
    source: SOURCE,
    rules: [
      revenueBelow(
        'alcohol',
        0.05,
        'questionable',
        'pass',
        'Chametz over Pesach',
        `${CHAMETZ_SOURCE} (alcohol as proxy; 5% materiality modelled)`,
      ),
      revenueBelow('pork', 0.05, 'questionable', 'pass', 'Trading in forbidden foods', `${FOODS_SOURCE} (5% materiality modelled)`),
      revenueBelow(
        'non_kosher_food',
        0.05,
        'questionable',
        'pass',
        'Trading in forbidden foods',
        `${FOODS_SOURCE} (5% materiality modelled)`,
      ),
      ...ownBusiness(),
    ],
    notAssessed: NOT_ASSESSED,
  }),
];

/** Rules for a company not controlled by Jews: only a main trade in forbidden foods is in dispute. */
export const HALAKHIC_NOT_JEWISH_CONTROLLED_VERSIONS: readonly ExclusionVersion[] = [
  defineExclusionVersion({
    framework: 'jewish_halakhic',
    version: VERSION,
    effectiveFrom: '1900-01-01',
    effectiveFromConfirmed: false,
    source: SOURCE,
    rules: [mainTrade('pork'), mainTrade('non_kosher_food'), ...ownBusiness()],
    notAssessed: [],
  }),
];

assertChronological(HALAKHIC_VERSIONS);
assertChronological(HALAKHIC_NOT_JEWISH_CONTROLLED_VERSIONS);

function ribbitCheck(ctx: ScreenContext, jewish: boolean): Reason {
  const code = 'jewish_halakhic.ribbit';
  if (!jewish) {
    return {
      code,
      result: 'pass',
      message:
        'Ribbit: the prohibition applies between Jews, and the company is not controlled by Jews; its loans, given or taken, are ' +
        'not ribbit for a minority shareholder, who is not a party to them. ' +
        'View followed: Igrot Moshe (a small shareholder is not an owner), the common practice; stricter poskim (Minchat Yitzchak ' +
        '3:1 for a shareholder with a vote) treat every shareholder as a partner.',
      source: RIBBIT_SOURCE,
    };
  }
  const heterIska = ctx.input.listing.heterIska;
  if (heterIska === true) {
    return {
      code,
      result: 'pass',
      message:
        'Ribbit: a company controlled by Jews, operating under a heter iska, which turns its interest-bearing loans into permitted investment.',
      source: RIBBIT_SOURCE,
    };
  }
  if (heterIska === null) {
    return {
      code,
      result: 'insufficient_data',
      message:
        'Ribbit: a company controlled by Jews borrows from and lends to Jews at interest unless it operates under a heter iska, and ' +
        'whether it does is unknown.',
      metric: 'listing.heter_iska',
      source: RIBBIT_SOURCE,
    };
  }
  return {
    code,
    result: 'questionable',
    doubt: 'scholarly_disagreement',
    message:
      'Ribbit: a company controlled by Jews without a heter iska. Authorities differ: Igrot Moshe (YD 2:62–63) is lenient for a ' +
      'corporation, whose officers bear no personal liability; the Israeli kosher-company practice requires a heter iska.',
    source: RIBBIT_SOURCE,
  };
}

function shabbatCheck(ctx: ScreenContext, jewish: boolean): Reason {
  const code = 'jewish_halakhic.shabbat';
  const operates = ctx.input.listing.operatesOnShabbat;
  if (!jewish) {
    const what =
      operates === true
        ? 'The business operates on Shabbat, but'
        : operates === false
          ? 'The business does not operate on Shabbat; in any case'
          : 'Whether the business operates on Shabbat is not known, and it does not decide:';
    return {
      code,
      result: 'pass',
      message:
        `Shabbat: ${what} work done by non-Jews under non-Jewish management is on their own account; a Jew may hold shares, ` +
        `even a majority, when the controlling management is predominantly non-Jewish. View followed: Igrot Moshe OC 4:54 (Minchat Yitzchak 3:1 likewise).`,
      source: SHABBAT_SOURCE,
    };
  }
  if (operates === null) {
    return {
      code,
      result: 'insufficient_data',
      message: 'Shabbat: a company controlled by Jews must not operate on Shabbat, and whether it does is unknown.',
      metric: 'listing.operates_on_shabbat',
      source: SHABBAT_SOURCE,
    };
  }
  return operates
    ? {
        code,
        result: 'questionable',
        doubt: 'scholarly_disagreement',
        message:
          'Shabbat: a company controlled by Jews operates on Shabbat. Authorities differ: on Igrot Moshe (EH 1:7) a negligible ' +
          "holding does not make the shareholder the company's agent; the Israeli kosher-company practice excludes it.",
        source: SHABBAT_SOURCE,
      }
    : { code, result: 'pass', message: 'Shabbat: the business does not operate on Shabbat.', source: SHABBAT_SOURCE };
}

/** Chametz of a company not controlled by Jews: the company's, not the shareholder's. */
const CHAMETZ_NOT_JEWISH: Reason = Object.freeze({
  code: 'jewish_halakhic.alcohol',
  result: 'pass',
  message:
    'Chametz over Pesach: chametz owned by a company not controlled by Jews is not owned by its minority shareholders (Igrot Moshe ' +
    'EH 1:7), so no revenue limit applies; many include such shares in the sale of chametz as a stringency.',
  metric: 'activity.alcohol',
  source: `${CHAMETZ_SOURCE}; ${HOLDING_SOURCE}`,
});

/** The checks under one reading of control, and the version they come from (null: not in force). */
function readingOf(ctx: ScreenContext, jewish: boolean): { v: ExclusionVersion; reasons: Reason[] } | null {
  const v = versionInForce(jewish ? HALAKHIC_VERSIONS : HALAKHIC_NOT_JEWISH_CONTROLLED_VERSIONS, ctx.input.screeningDate);
  if (v === null) return null;
  const reasons: Reason[] = [ribbitCheck(ctx, jewish), shabbatCheck(ctx, jewish)];
  if (!jewish) reasons.push(CHAMETZ_NOT_JEWISH);
  exclusionChecks(v, ctx, reasons);
  const food = foodTradeDoubt(ctx, jewish, FOODS_MAIN_TRADE_SOURCE);
  if (food !== null) reasons.push(food);
  for (const r of v.notAssessedReasons) reasons.push(r);
  return { v, reasons };
}

/**
 * Screen one company against the halakhic grounds. When control is unknown the stricter reading
 * (controlled by Jews) is shown, and the verdict stands only where both readings agree.
 */
export function screenHalakhic(ctx: ScreenContext): FrameworkResult {
  const listing = ctx.input.listing;
  const control = controlOf(listing);
  const reading = readingOf(ctx, control.jewish ?? true);
  if (reading === null) return notInForce('jewish_halakhic', ctx.input.screeningDate);
  const { v } = reading;
  let agreed = true;
  if (control.jewish === null) {
    const lenient = readingOf(ctx, false);
    agreed = lenient !== null && combineReasons(lenient.reasons) === combineReasons(reading.reasons);
  }
  const reasons: Reason[] = [controlReason(control, HOLDING_SOURCE, agreed), ...reading.reasons];
  if (listing.exchangeMic === TEL_AVIV_MIC || listing.domicile === ISRAEL) {
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
