/**
 * The reviewed industry-code table: per SIC code as the SEC's EDGAR assigns them (and the 1987
 * manual's codes a vendor feed may carry), the screened activities a company of the class may
 * carry and, where the code names one, its primary business. Sources, and why each class may
 * carry what it lists: docs/data/activities.md ("Industry codes"). Every row is tested
 * (test/engine/industry-codes.test.ts).
 *
 * A lookup takes the narrowest row containing the code, so a specific code (5812) overrides
 * the major group around it (5800-5899). Ranges are major groups of the 1987 manual; codes
 * EDGAR assigns that say nothing about a business (blank checks, ADRs, holding offices,
 * non-operating and non-classifiable establishments) are deliberately absent.
 */
import type { ActivityCode } from './inputs.ts';

export interface IndustryClass {
  from: number;
  to: number;
  /** EDGAR's title of the code, or the 1987 manual's title of the group. */
  title: string;
  /** The screened activity the code names as the primary business, if any. */
  primary?: ActivityCode;
  /** Other screened activities a company of this class may carry: in doubt until a dated figure settles them. */
  mayCarry: readonly ActivityCode[];
}

const row = (from: number, to: number, title: string, mayCarry: readonly ActivityCode[] = [], primary?: ActivityCode): IndustryClass =>
  primary === undefined ? { from, to, title, mayCarry } : { from, to, title, mayCarry, primary };

const GROCERY: readonly ActivityCode[] = ['alcohol', 'tobacco', 'pork'];
const RESTAURANT: readonly ActivityCode[] = ['pork', 'alcohol', 'coffee', 'tea'];
const MILITARY: readonly ActivityCode[] = ['weapons'];

/** Codes that name a screened activity as the primary business (EDGAR's codes and the 1987 manual's). */
export const PRIMARY_CLASSES: readonly IndustryClass[] = [
  row(2082, 2082, 'malt beverages (brewers)', [], 'alcohol'),
  row(2084, 2085, 'wines, brandy and distilled spirits', [], 'alcohol'),
  row(2095, 2095, 'roasted coffee', ['tea'], 'coffee'),
  row(2100, 2141, 'tobacco products', ['vaping'], 'tobacco'),
  row(3480, 3489, 'ordnance and accessories', ['weapons_controversial'], 'weapons'),
  row(3760, 3769, 'guided missiles and space vehicles', ['weapons_controversial'], 'weapons'),
  row(3795, 3795, 'tanks and tank components', [], 'weapons'),
  row(4833, 4841, 'television broadcasting and cable', ['adult_entertainment'], 'media_entertainment'),
  row(5180, 5182, 'wholesale beer, wine and distilled beverages', [], 'alcohol'),
  row(5194, 5194, 'wholesale tobacco and tobacco products', ['vaping'], 'tobacco'),
  row(5813, 5813, 'drinking places (alcoholic beverages)', ['pork', 'gambling'], 'alcohol'),
  row(5921, 5921, 'liquor stores', ['tobacco'], 'alcohol'),
  row(6020, 6099, 'banks, savings institutions and credit agencies', [], 'conventional_finance'),
  row(6110, 6199, 'non-depository credit institutions', [], 'conventional_finance'),
  row(6200, 6221, 'security and commodity brokers and dealers', [], 'conventional_finance'),
  row(6300, 6411, 'insurance carriers, agents and brokers', [], 'conventional_insurance'),
  row(7011, 7011, 'hotels and motels', ['alcohol', 'gambling', 'pork'], 'hotels_leisure'),
  row(7800, 7849, 'motion pictures (production, distribution, theaters)', ['adult_entertainment'], 'media_entertainment'),
  row(7948, 7948, 'racing, including track operation (pari-mutuel wagering)', [], 'gambling'),
  row(7993, 7993, 'coin-operated amusement devices', [], 'gambling'),
];

/** Every class the table has reviewed: the primary classes, then the rest of EDGAR's codes by group. */
export const REVIEWED_CLASSES: readonly IndustryClass[] = [
  ...PRIMARY_CLASSES,
  // Agriculture, forestry, fishing (01-09).
  row(100, 199, 'agricultural production - crops', ['tobacco', 'coffee', 'tea', 'cannabis']),
  row(200, 299, 'agricultural production - livestock and animal specialties', ['pork']),
  row(700, 999, 'agricultural services, forestry, fishing, hunting and trapping'),
  // Mining and construction (10-17).
  row(1000, 1499, 'mining and quarrying'),
  row(1500, 1799, 'construction'),
  // Food and kindred products (20).
  row(2000, 2099, 'food and kindred products', ['pork', 'alcohol', 'coffee', 'tea', 'non_halal_meat']),
  row(2011, 2011, 'meat packing plants', ['pork', 'non_halal_meat']),
  row(2013, 2013, 'sausages and other prepared meat products', ['pork', 'non_halal_meat']),
  row(2015, 2015, 'poultry slaughtering and processing', ['non_halal_meat']),
  row(2020, 2024, 'dairy products, ice cream and frozen desserts'),
  row(2030, 2030, 'canned, frozen and preserved fruit, vegetables and food specialties', ['pork']),
  row(2033, 2033, 'canned fruits, vegetables, preserves, jams and jellies'),
  row(2040, 2040, 'grain mill products'),
  row(2050, 2052, 'bakery products, cookies and crackers'),
  row(2060, 2060, 'sugar and confectionery products', ['alcohol']),
  row(2070, 2070, 'fats and oils', ['pork']),
  row(2080, 2080, 'beverages', ['alcohol', 'coffee', 'tea']),
  row(2086, 2086, 'bottled and canned soft drinks and carbonated waters', ['coffee', 'tea']),
  row(2090, 2090, 'miscellaneous food preparations and kindred products', ['coffee', 'tea', 'pork']),
  row(2092, 2092, 'prepared fresh or frozen fish and seafoods', ['non_kosher_food']),
  // Manufacturing without a screened product (22-27, 29-36 except below).
  row(2200, 2699, 'textiles, apparel, lumber, furniture and paper'),
  row(2700, 2799, 'printing, publishing and allied industries'),
  row(2721, 2721, 'periodicals: publishing or publishing and printing', ['adult_entertainment']),
  row(2800, 2899, 'chemicals and allied products'),
  row(2833, 2833, 'medicinal chemicals and botanical products', ['cannabis']),
  row(2834, 2834, 'pharmaceutical preparations', ['contraceptives', 'abortion']),
  row(2836, 2836, 'biological products (no diagnostic substances)', ['embryonic_stem_cell']),
  row(2900, 3399, 'petroleum, rubber, plastics, leather, stone, clay, glass and primary metals'),
  row(3400, 3499, 'fabricated metal products'),
  row(3500, 3699, 'industrial machinery, computers, electronic and electrical equipment'),
  // Transportation equipment (37): aircraft, ships and their parts are built for armed forces too.
  row(3700, 3799, 'transportation equipment'),
  row(3720, 3729, 'aircraft and parts', MILITARY),
  row(3730, 3731, 'ship and boat building and repairing', MILITARY),
  row(3790, 3799, 'miscellaneous transportation equipment', MILITARY),
  // Instruments (38).
  row(3800, 3899, 'measuring, analyzing, medical, optical and photographic instruments'),
  row(3812, 3812, 'search, detection, navigation, guidance, aeronautical systems', MILITARY),
  // Miscellaneous manufacturing (39): slot machines and gaming devices are made here.
  row(3900, 3999, 'miscellaneous manufacturing industries'),
  row(3990, 3999, 'miscellaneous manufacturing industries (incl. gaming machines)', ['gambling']),
  // Transportation, communications, utilities (40-49).
  row(4000, 4399, 'railroads, transit, trucking, warehousing and postal services'),
  row(4400, 4499, 'water transportation (incl. cruise lines)', ['alcohol', 'gambling']),
  row(4500, 4799, 'air transportation, pipelines and transportation services'),
  row(4800, 4899, 'communications'),
  row(4832, 4832, 'radio broadcasting stations', ['media_entertainment']),
  row(4900, 4999, 'electric, gas and sanitary services'),
  // Wholesale trade (50-51).
  row(5000, 5199, 'wholesale trade'),
  row(5140, 5149, 'wholesale groceries and related products', GROCERY),
  row(5150, 5159, 'wholesale farm product raw materials (incl. leaf tobacco)', ['tobacco']),
  row(5190, 5199, 'wholesale miscellaneous nondurable goods', ['tobacco', 'alcohol', 'vaping']),
  // Retail trade (52-59).
  row(5200, 5299, 'building materials, hardware and garden supply'),
  row(5300, 5399, 'general merchandise stores (department, variety)', GROCERY),
  row(5400, 5499, 'food stores', GROCERY),
  row(5412, 5412, 'convenience stores', [...GROCERY, 'gambling', 'vaping']),
  row(5500, 5599, 'automotive dealers and gasoline service stations', ['alcohol', 'tobacco', 'vaping']),
  row(5531, 5531, 'auto and home supply stores'),
  row(5600, 5799, 'apparel, home furniture and electronics stores'),
  row(5800, 5899, 'eating and drinking places', RESTAURANT),
  row(5810, 5810, 'retail-eating and drinking places', RESTAURANT),
  row(5812, 5812, 'retail-eating places', RESTAURANT),
  row(5900, 5999, 'miscellaneous retail (incl. liquor and tobacco stores)', ['alcohol', 'tobacco', 'vaping']),
  row(5912, 5912, 'drug stores and proprietary stores', ['alcohol', 'tobacco', 'vaping']),
  row(5940, 5949, 'miscellaneous shopping goods stores (incl. sporting goods and firearms)', MILITARY),
  row(5960, 5969, 'nonstore retailers, catalog and mail-order houses', ['alcohol', 'pork']),
  // Real estate and investment (65, 67): mortgage REITs and investors share these codes with lenders.
  row(6500, 6599, 'real estate'),
  row(6792, 6795, 'oil, mineral royalty traders; patent owners and lessors'),
  row(6798, 6799, 'real estate investment trusts; investors NEC', ['conventional_finance']),
  row(6282, 6282, 'investment advice', ['conventional_finance']),
  // Services (70-89).
  row(7000, 7099, 'hotels, rooming houses, camps and other lodging places', ['alcohol', 'gambling', 'pork']),
  row(7200, 7299, 'personal services'),
  row(7300, 7399, 'business services'),
  row(7500, 7699, 'automotive repair, services, parking and miscellaneous repair'),
  row(7900, 7999, 'amusement and recreation services', ['gambling', 'alcohol', 'media_entertainment', 'hotels_leisure']),
  row(7990, 7999, 'miscellaneous amusement and recreation', ['gambling', 'alcohol', 'media_entertainment', 'hotels_leisure']),
  row(7997, 7997, 'membership sports and recreation clubs', ['alcohol']),
  row(8000, 8099, 'health services'),
  row(8060, 8069, 'hospitals', ['abortion']),
  row(8090, 8099, 'miscellaneous health and allied services (incl. family planning clinics)', ['abortion', 'contraceptives']),
  row(8100, 8699, 'legal, educational, social services and membership organizations'),
  row(8700, 8799, 'engineering, accounting, research and management services'),
  row(8731, 8731, 'commercial physical and biological research', ['embryonic_stem_cell', 'human_cloning']),
  row(8900, 8999, 'services, not elsewhere classified'),
];
