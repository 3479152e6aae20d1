/**
 * USCCB Socially Responsible Investment Guidelines. Two editions:
 * - 2003 (in force before the service's history starts): abortion, contraceptives (makers, or
 *   a significant share of revenue from sales), embryo-destructive research, a significant
 *   portion of revenue from pornography, weapons of mass destruction; discrimination screened
 *   from policy (not assessable here);
 * - November 2021 (approved 2021-11-17 at the USCCB General Meeting): adds explicit human
 *   cloning, euthanasia and assisted suicide, tobacco production, recreational cannabis, and
 *   primary-business gambling.
 * Both editions bar companies that "manufacture contraceptives" (and abortifacients, under
 * abortion) whatever their share, and sellers deriving "a significant portion" of revenue from
 * them (5% modelled); the 2021 tobacco exclusion is on production only. How the company takes
 * part comes from the exposure's involvement; when it is not reported the conservative default
 * applies (questionable). See docs/frameworks/catholic_usccb.md.
 */
import { assertChronological } from '../methodology-versions.ts';
import {
  anyInvolvement,
  defineExclusionVersion,
  directOnly,
  revenueBelow,
  type ExclusionRuleSpec,
  type ExclusionVersion,
} from './exclusion-types.ts';

const S2003 = 'USCCB Socially Responsible Investment Guidelines (November 2003)';
const S2021 = 'USCCB Socially Responsible Investment Guidelines (November 2021)';
const LIFE = 'Protecting human life';
const DIGNITY = 'Promoting human dignity';
const ARMS = 'Reducing arms production';

function common(source: string): ExclusionRuleSpec[] {
  return [
    anyInvolvement('abortion', 'fail', LIFE, `${source}: abortion (absolute exclusion)`),
    // Makers are excluded at any share; sellers from "a significant portion" of revenue.
    {
      ...revenueBelow(
        'contraceptives',
        0.05,
        'fail',
        'pass',
        LIFE,
        `${source}: "companies that manufacture contraceptives or derive a significant portion of [their] revenues from the sale ` +
          'of contraceptives" (manufacturers at any share; significant portion modelled as 5%)',
      ),
      direct: ['producer'],
    },
    anyInvolvement('embryonic_stem_cell', 'fail', LIFE, `${source}: embryonic stem cell research`),
    anyInvolvement('weapons_controversial', 'fail', ARMS, `${source}: weapons of mass destruction`),
    anyInvolvement(
      'weapons',
      'questionable',
      ARMS,
      `${source}: conventional weapons (the text sets no exclusion threshold)`,
      'ambiguous_rule',
    ),
  ];
}

const DISCRIMINATION = { ground: 'Racial and gender discrimination', why: 'assessed from corporate policy, not revenue; no data' };

export const USCCB_VERSIONS: readonly ExclusionVersion[] = [
  defineExclusionVersion({
    framework: 'catholic_usccb',
    version: 'usccb-sri-2003',
    effectiveFrom: '2003-11-01',
    effectiveFromConfirmed: false,
    source: S2003,
    rules: [
      ...common(S2003),
      // "a significant portion of their revenues": 5% modelled, as for contraceptive sales.
      revenueBelow(
        'adult_entertainment',
        0.05,
        'fail',
        'pass',
        DIGNITY,
        `${S2003}: pornography (a significant portion of revenue; 5% modelled)`,
      ),
      anyInvolvement(
        'human_cloning',
        'questionable',
        LIFE,
        `${S2003}: research ending prenatal life (cloning not named until 2021)`,
        'ambiguous_rule',
      ),
    ],
    notAssessed: [DISCRIMINATION],
  }),
  defineExclusionVersion({
    framework: 'catholic_usccb',
    version: 'usccb-sri-2021',
    effectiveFrom: '2021-11-17',
    effectiveFromConfirmed: true,
    source: S2021,
    rules: [
      ...common(S2021),
      anyInvolvement('adult_entertainment', 'fail', DIGNITY, `${S2021}: pornography`),
      anyInvolvement('human_cloning', 'fail', LIFE, `${S2021}: human cloning`),
      anyInvolvement('euthanasia', 'fail', LIFE, `${S2021}: euthanasia and assisted suicide`),
      // The 2021 text excludes the production of tobacco: a retailer or distributor is not excluded at any share.
      directOnly('tobacco', ['producer'], DIGNITY, `${S2021}: the production of tobacco (producers at any share; selling it is not named)`),
      revenueBelow(
        'cannabis',
        0.05,
        'fail',
        'questionable',
        DIGNITY,
        `${S2021}: recreational cannabis (recreational vs medical not distinguishable; 5% modelled)`,
        'ambiguous_evidence',
      ),
      revenueBelow('gambling', 0.5, 'fail', 'pass', DIGNITY, `${S2021}: gambling as primary business (more than half of revenue modelled)`),
      anyInvolvement(
        'vaping',
        'questionable',
        DIGNITY,
        `${S2021}: not named; nicotine vaping treated as a gray area next to tobacco`,
        'ambiguous_rule',
      ),
    ],
    notAssessed: [DISCRIMINATION],
  }),
];

assertChronological(USCCB_VERSIONS);
