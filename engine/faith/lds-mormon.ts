/**
 * Word of Wisdom (Doctrine and Covenants 89, 1833) as taught by The Church of Jesus Christ of
 * Latter-day Saints: alcohol ("wine or strong drink"), tobacco, "hot drinks" (coffee and tea),
 * harmful and illegal drugs; the August 2019 clarification names vaping, green tea,
 * coffee-based products and recreational marijuana. Wider standards (For the Strength of
 * Youth): gambling and pornography. The Church publishes no investment screen: applying these
 * consumption standards to revenue is the service's modelling (a producer at any share, other
 * involvement above 5% of revenue). See docs/frameworks/lds_mormon.md.
 */
import { assertChronological } from '../methodology-versions.ts';
import { anyInvolvement, defineExclusionVersion, revenueBelow, type ExclusionRuleSpec, type ExclusionVersion } from './exclusion-types.ts';

const D89 = 'Doctrine and Covenants 89 (Word of Wisdom)';
const S2019 = 'Church statement and New Era, August 2019 (vaping, green tea, coffee-based products, marijuana)';
const FSY = 'For the Strength of Youth (gambling, pornography)';
const WOW = 'Word of Wisdom';
const STANDARDS = 'Church standards';

/**
 * Making or running what the standard forbids is excluded at any share (modelled); selling it
 * among other goods, distributing it or serving it is judged by a 5% materiality limit (modelled).
 */
function material(activity: Parameters<typeof revenueBelow>[0], ground: string, source: string): ExclusionRuleSpec {
  return { ...revenueBelow(activity, 0.05, 'fail', 'pass', ground, `${source}; producers at any share`), direct: ['producer'] };
}

function common(): ExclusionRuleSpec[] {
  return [
    material('alcohol', WOW, `${D89}:5–7 (5% materiality modelled)`),
    material('tobacco', WOW, `${D89}:8 (5% materiality modelled)`),
    material('coffee', WOW, `${D89}:9 "hot drinks" (5% materiality modelled)`),
    material('tea', WOW, `${D89}:9 "hot drinks" (5% materiality modelled)`),
    material('cannabis', WOW, `${D89} and Church teaching on harmful drugs (5% materiality modelled)`),
    material('recreational_drugs', WOW, `${D89} and Church teaching on harmful drugs (5% materiality modelled)`),
    material('gambling', STANDARDS, `${FSY} (5% materiality modelled)`),
    anyInvolvement('adult_entertainment', 'fail', STANDARDS, FSY),
  ];
}

const NOT_ASSESSED = [
  { ground: 'Official investment guidance', why: 'the Church publishes no investment screen; consumption standards applied to revenue' },
];

export const LDS_VERSIONS: readonly ExclusionVersion[] = [
  defineExclusionVersion({
    framework: 'lds_mormon',
    version: 'lds-wow-d89',
    effectiveFrom: '1900-01-01',
    effectiveFromConfirmed: false,
    source: D89,
    rules: [
      ...common(),
      revenueBelow('vaping', 0.05, 'questionable', 'pass', WOW, `${D89}: vaping not named before August 2019`, 'ambiguous_rule'),
    ],
    notAssessed: NOT_ASSESSED,
  }),
  defineExclusionVersion({
    framework: 'lds_mormon',
    version: 'lds-wow-2019',
    // Published mid-August 2019; the exact day is unconfirmed (modelled as 2019-08-15).
    effectiveFrom: '2019-08-15',
    effectiveFromConfirmed: false,
    source: `${D89}; ${S2019}`,
    rules: [...common(), material('vaping', WOW, `${S2019} (5% materiality modelled)`)],
    notAssessed: NOT_ASSESSED,
  }),
];

assertChronological(LDS_VERSIONS);
