/**
 * Biblically responsible investing: a composite of the screens published by the main BRI
 * providers (Eventide, Timothy Plan, Inspire Investing, GuideStone). No single authority
 * exists; where the providers diverge (thresholds, contraceptives, weapons) the table says
 * `questionable`. See docs/frameworks/christian_bri.md.
 */
import { assertChronological } from '../methodology-versions.ts';
import { anyInvolvement, defineExclusionVersion, revenueBelow, type ExclusionVersion } from './exclusion-types.ts';

/** The four providers' published screens conflict (thresholds, contraceptives, weapons): `questionable` says so. */
const PROVIDERS_DIFFER = 'conflicting_sources';
const SOURCE = 'BRI composite: Eventide, Timothy Plan, Inspire Investing and GuideStone published screens';
const LIFE = 'Sanctity of life';
const PURITY = 'Sexual purity';
const VICE = 'Addictive vices';

export const BRI_VERSIONS: readonly ExclusionVersion[] = [
  defineExclusionVersion({
    framework: 'christian_bri',
    version: 'bri-composite-1',
    effectiveFrom: '1900-01-01',
    effectiveFromConfirmed: false,
    source: SOURCE,
    rules: [
      anyInvolvement('abortion', 'fail', LIFE, `${SOURCE} (abortion: all four exclude)`),
      anyInvolvement('embryonic_stem_cell', 'fail', LIFE, `${SOURCE} (embryo-destructive research)`),
      anyInvolvement('human_cloning', 'fail', LIFE, `${SOURCE} (modelled with embryo-destructive research)`),
      anyInvolvement(
        'contraceptives',
        'questionable',
        LIFE,
        `${SOURCE} (abortifacients: providers differ on contraceptives)`,
        PROVIDERS_DIFFER,
      ),
      anyInvolvement('adult_entertainment', 'fail', PURITY, `${SOURCE} (pornography: all four exclude)`),
      revenueBelow('alcohol', 0.05, 'fail', 'questionable', VICE, `${SOURCE} (5% materiality modelled)`, PROVIDERS_DIFFER),
      revenueBelow('tobacco', 0.05, 'fail', 'questionable', VICE, `${SOURCE} (5% materiality modelled)`, PROVIDERS_DIFFER),
      revenueBelow('vaping', 0.05, 'fail', 'questionable', VICE, `${SOURCE} (modelled with tobacco)`, PROVIDERS_DIFFER),
      revenueBelow('gambling', 0.05, 'fail', 'questionable', VICE, `${SOURCE} (5% materiality modelled)`, PROVIDERS_DIFFER),
      revenueBelow('cannabis', 0.05, 'fail', 'questionable', VICE, `${SOURCE} (recreational cannabis)`, PROVIDERS_DIFFER),
      anyInvolvement('recreational_drugs', 'fail', VICE, `${SOURCE} (illicit and recreational drugs)`),
      anyInvolvement(
        'weapons_controversial',
        'questionable',
        'Peace',
        `${SOURCE} (some providers exclude weapons of mass destruction)`,
        PROVIDERS_DIFFER,
      ),
    ],
    notAssessed: [
      { ground: 'Family and marriage policies', why: 'screened by some providers from corporate policy, not revenue; no data' },
      { ground: 'Human rights and persecution', why: 'no data' },
    ],
  }),
];

assertChronological(BRI_VERSIONS);
