/**
 * SIC industry codes that name a screened activity as a company's primary business. A SIC
 * code classifies the primary line of business, so a match is evidence that the activity is at
 * least half of the business; a code outside this table is a clean industry class. The table
 * and its sources are in docs/data/activities.md ("Industry codes").
 */
import type { ActivityCode } from './inputs.ts';

interface SicRange {
  from: number;
  to: number;
  activity: ActivityCode;
  title: string;
}

const SIC_RANGES: readonly SicRange[] = [
  { from: 2082, to: 2082, activity: 'alcohol', title: 'malt beverages (brewers)' },
  { from: 2084, to: 2085, activity: 'alcohol', title: 'wines, brandy and distilled spirits' },
  { from: 2100, to: 2141, activity: 'tobacco', title: 'tobacco products' },
  { from: 3480, to: 3489, activity: 'weapons', title: 'ordnance and ammunition' },
  { from: 3760, to: 3769, activity: 'weapons', title: 'guided missiles and space vehicles' },
  { from: 3795, to: 3795, activity: 'weapons', title: 'tanks and tank components' },
  { from: 5180, to: 5182, activity: 'alcohol', title: 'wholesale beer, wine and distilled beverages' },
  { from: 5194, to: 5194, activity: 'tobacco', title: 'wholesale tobacco and tobacco products' },
  { from: 5921, to: 5921, activity: 'alcohol', title: 'liquor stores' },
  { from: 6020, to: 6099, activity: 'conventional_finance', title: 'banks, savings institutions and credit agencies' },
  { from: 6110, to: 6199, activity: 'conventional_finance', title: 'non-depository credit institutions' },
  { from: 6200, to: 6211, activity: 'conventional_finance', title: 'security brokers and dealers' },
  { from: 6300, to: 6411, activity: 'conventional_insurance', title: 'insurance carriers, agents and brokers' },
  { from: 7011, to: 7011, activity: 'hotels_leisure', title: 'hotels and motels' },
  { from: 7800, to: 7849, activity: 'media_entertainment', title: 'motion pictures (production, distribution, theaters)' },
  { from: 4833, to: 4841, activity: 'media_entertainment', title: 'television broadcasting and cable' },
  { from: 7948, to: 7948, activity: 'gambling', title: 'racing, including track operation (pari-mutuel wagering)' },
  { from: 7993, to: 7993, activity: 'gambling', title: 'coin-operated amusement devices' },
];

export interface IndustryActivity {
  activity: ActivityCode;
  sic: string;
  title: string;
}

/** The screened activity a SIC code names as the primary business, or null for a clean class or an unusable code. */
export function activityOfSic(sic: string | null): IndustryActivity | null {
  if (sic === null || !/^\d{4}$/.test(sic)) return null;
  const code = Number(sic);
  for (const r of SIC_RANGES) if (code >= r.from && code <= r.to) return { activity: r.activity, sic, title: r.title };
  return null;
}

/**
 * Clean classes in which screened activities are common but not the primary business and their
 * share is not reported (restaurants sell pork and alcohol; amusement and recreation includes
 * gaming and entertainment; packaged-food makers sell meat products). They cover a company only
 * with doubt: a pass on them is `questionable` for a framework that screens one of the listed
 * activities.
 */
const DOUBTFUL_RANGES: ReadonlyArray<{ from: number; to: number; activities: readonly ActivityCode[]; title: string }> = [
  // Classes that do not name meat but whose products commonly include it: the general food
  // class and canned/frozen specialties (canned soups, chili, pork and beans, frozen dinners).
  { from: 2000, to: 2000, activities: ['pork'], title: 'food and kindred products' },
  { from: 2011, to: 2013, activities: ['pork'], title: 'meat packing and prepared meats' },
  { from: 2030, to: 2038, activities: ['pork'], title: 'canned, frozen and preserved foods and specialties' },
  { from: 5812, to: 5813, activities: ['pork', 'alcohol'], title: 'eating and drinking places' },
  {
    from: 7990,
    to: 7999,
    activities: ['gambling', 'media_entertainment', 'hotels_leisure'],
    title: 'miscellaneous amusement and recreation',
  },
];

export interface IndustryDoubt {
  sic: string;
  title: string;
  activities: readonly ActivityCode[];
}

/** The activities a clean SIC class leaves in doubt, or null when it leaves none. */
export function doubtOfSic(sic: string | null): IndustryDoubt | null {
  if (sic === null || !/^\d{4}$/.test(sic)) return null;
  const code = Number(sic);
  for (const r of DOUBTFUL_RANGES) if (code >= r.from && code <= r.to) return { sic, title: r.title, activities: r.activities };
  return null;
}

/** True when the code is a well-formed 4-digit SIC code. */
export function isSicCode(sic: string | null): sic is string {
  return sic !== null && /^\d{4}$/.test(sic) && sic !== '0000';
}
