/**
 * Fixed vocabularies of the sample generator: industries (real SIC codes and titles), which
 * business activities each industry tends to have, name syllables and legal-form suffixes.
 * Company and fund names are built from syllables, so they are fictional by construction.
 */
import type { Involvement } from '../../engine/inputs.ts';

export type IndustryGroup =
  | 'general'
  | 'tech'
  | 'energy'
  | 'industrial'
  | 'utility'
  | 'telecom'
  | 'retail'
  | 'grocery'
  | 'restaurant'
  | 'hotel'
  | 'casino'
  | 'brewer'
  | 'tobacco'
  | 'meat'
  | 'soft_drinks'
  | 'coffee_tea'
  | 'defense'
  | 'pharma'
  | 'biotech'
  | 'cannabis'
  | 'hospital'
  | 'media'
  | 'bank'
  | 'insurer'
  | 'reit';

export interface Industry {
  sic: string;
  title: string;
  group: IndustryGroup;
  /** Relative frequency among listed companies. */
  weight: number;
  /** Typical debt / total assets. */
  leverage: number;
}

export const INDUSTRIES: readonly Industry[] = [
  { sic: '1311', title: 'Crude Petroleum & Natural Gas', group: 'energy', weight: 40, leverage: 0.3 },
  { sic: '1040', title: 'Gold & Silver Ores', group: 'energy', weight: 35, leverage: 0.15 },
  { sic: '1531', title: 'Operative Builders', group: 'industrial', weight: 20, leverage: 0.3 },
  { sic: '2011', title: 'Meat Packing Plants', group: 'meat', weight: 6, leverage: 0.3 },
  { sic: '2080', title: 'Beverages', group: 'soft_drinks', weight: 8, leverage: 0.3 },
  { sic: '2082', title: 'Malt Beverages', group: 'brewer', weight: 4, leverage: 0.35 },
  { sic: '2085', title: 'Distilled & Blended Liquors', group: 'brewer', weight: 3, leverage: 0.3 },
  { sic: '2095', title: 'Roasted Coffee', group: 'coffee_tea', weight: 3, leverage: 0.25 },
  { sic: '2111', title: 'Cigarettes', group: 'tobacco', weight: 2, leverage: 0.45 },
  { sic: '2833', title: 'Medicinal Chemicals & Botanical Products', group: 'cannabis', weight: 6, leverage: 0.15 },
  { sic: '2834', title: 'Pharmaceutical Preparations', group: 'pharma', weight: 45, leverage: 0.2 },
  { sic: '2836', title: 'Biological Products (No Diagnostic Substances)', group: 'biotech', weight: 30, leverage: 0.1 },
  { sic: '2000', title: 'Food and Kindred Products', group: 'grocery', weight: 15, leverage: 0.3 },
  { sic: '2800', title: 'Chemicals & Allied Products', group: 'industrial', weight: 25, leverage: 0.3 },
  { sic: '3312', title: 'Steel Works, Blast Furnaces & Rolling Mills', group: 'industrial', weight: 15, leverage: 0.3 },
  { sic: '3480', title: 'Ordnance & Accessories (No Vehicles/Guided Missiles)', group: 'defense', weight: 3, leverage: 0.3 },
  { sic: '3721', title: 'Aircraft', group: 'defense', weight: 4, leverage: 0.3 },
  { sic: '3560', title: 'General Industrial Machinery & Equipment', group: 'industrial', weight: 30, leverage: 0.25 },
  { sic: '3674', title: 'Semiconductors & Related Devices', group: 'tech', weight: 30, leverage: 0.12 },
  { sic: '3711', title: 'Motor Vehicles & Passenger Car Bodies', group: 'industrial', weight: 12, leverage: 0.4 },
  { sic: '3841', title: 'Surgical & Medical Instruments & Apparatus', group: 'general', weight: 20, leverage: 0.2 },
  { sic: '4813', title: 'Telephone Communications (No Radiotelephone)', group: 'telecom', weight: 12, leverage: 0.4 },
  { sic: '4911', title: 'Electric Services', group: 'utility', weight: 18, leverage: 0.4 },
  { sic: '4400', title: 'Water Transportation', group: 'industrial', weight: 10, leverage: 0.4 },
  { sic: '5331', title: 'Variety Stores', group: 'retail', weight: 8, leverage: 0.25 },
  { sic: '5411', title: 'Retail-Grocery Stores', group: 'grocery', weight: 8, leverage: 0.3 },
  { sic: '5812', title: 'Retail-Eating Places', group: 'restaurant', weight: 12, leverage: 0.35 },
  { sic: '5900', title: 'Retail-Miscellaneous Retail', group: 'retail', weight: 12, leverage: 0.25 },
  { sic: '6021', title: 'National Commercial Banks', group: 'bank', weight: 35, leverage: 0.55 },
  { sic: '6199', title: 'Finance Services', group: 'bank', weight: 15, leverage: 0.5 },
  { sic: '6311', title: 'Life Insurance', group: 'insurer', weight: 8, leverage: 0.2 },
  { sic: '6331', title: 'Fire, Marine & Casualty Insurance', group: 'insurer', weight: 8, leverage: 0.15 },
  { sic: '6798', title: 'Real Estate Investment Trusts', group: 'reit', weight: 25, leverage: 0.45 },
  { sic: '7011', title: 'Hotels & Motels', group: 'hotel', weight: 6, leverage: 0.45 },
  { sic: '7372', title: 'Services-Prepackaged Software', group: 'tech', weight: 45, leverage: 0.1 },
  { sic: '7812', title: 'Services-Motion Picture & Video Tape Production', group: 'media', weight: 6, leverage: 0.3 },
  { sic: '4833', title: 'Television Broadcasting Stations', group: 'media', weight: 5, leverage: 0.35 },
  { sic: '7990', title: 'Services-Miscellaneous Amusement & Recreation', group: 'casino', weight: 5, leverage: 0.45 },
  { sic: '8062', title: 'Services-General Medical & Surgical Hospitals', group: 'hospital', weight: 6, leverage: 0.4 },
  { sic: '8742', title: 'Services-Management Consulting Services', group: 'general', weight: 15, leverage: 0.15 },
  { sic: '1700', title: 'Construction Special Trade Contractors', group: 'industrial', weight: 12, leverage: 0.25 },
  { sic: '4210', title: 'Trucking & Courier Services (No Air)', group: 'industrial', weight: 8, leverage: 0.35 },
];

/**
 * An activity an industry tends to have: probability, revenue-share range in 0..1, and how the
 * company takes part (a brewer produces alcohol, a grocer retails it); null for the 'any' rules,
 * so some synthetic rows leave involvement unreported, as vendors do.
 */
export interface ExposureRule {
  group: IndustryGroup | 'any';
  activity: string;
  probability: number;
  low: number;
  high: number;
  involvement: Involvement | null;
}

const r = (
  group: ExposureRule['group'],
  activity: string,
  probability: number,
  low: number,
  high: number,
  involvement: Involvement | null,
): ExposureRule => ({
  group,
  activity,
  probability,
  low,
  high,
  involvement,
});

export const EXPOSURE_RULES: readonly ExposureRule[] = [
  r('bank', 'conventional_finance', 0.97, 0.6, 0.97, 'producer'),
  r('bank', 'conventional_insurance', 0.2, 0.02, 0.15, 'distributor'),
  r('insurer', 'conventional_insurance', 0.97, 0.6, 0.97, 'producer'),
  r('insurer', 'conventional_finance', 0.5, 0.05, 0.3, 'producer'),
  r('reit', 'conventional_finance', 0.2, 0.01, 0.1, 'producer'),
  r('reit', 'hotels_leisure', 0.2, 0.05, 0.4, 'ancillary'),
  r('reit', 'gambling', 0.04, 0.02, 0.2, 'ancillary'),
  r('brewer', 'alcohol', 0.97, 0.5, 0.98, 'producer'),
  r('brewer', 'non_kosher_food', 0.1, 0.01, 0.05, 'producer'),
  r('soft_drinks', 'alcohol', 0.15, 0.02, 0.15, 'producer'),
  r('soft_drinks', 'coffee', 0.3, 0.05, 0.4, 'producer'),
  r('soft_drinks', 'tea', 0.4, 0.05, 0.3, 'producer'),
  r('coffee_tea', 'coffee', 0.9, 0.4, 0.95, 'producer'),
  r('coffee_tea', 'tea', 0.6, 0.05, 0.4, 'producer'),
  r('tobacco', 'tobacco', 0.97, 0.6, 0.95, 'producer'),
  r('tobacco', 'vaping', 0.5, 0.02, 0.2, 'producer'),
  r('tobacco', 'cannabis', 0.1, 0.01, 0.08, 'producer'),
  r('casino', 'gambling', 0.95, 0.4, 0.9, 'producer'),
  r('casino', 'hotels_leisure', 0.7, 0.1, 0.4, 'producer'),
  r('casino', 'alcohol', 0.6, 0.03, 0.12, 'retailer'),
  r('casino', 'adult_entertainment', 0.05, 0.005, 0.05, 'retailer'),
  r('hotel', 'hotels_leisure', 0.95, 0.5, 0.95, 'producer'),
  r('hotel', 'alcohol', 0.8, 0.05, 0.2, 'retailer'),
  r('hotel', 'gambling', 0.2, 0.02, 0.15, 'producer'),
  r('hotel', 'adult_entertainment', 0.05, 0.005, 0.02, 'distributor'),
  r('hotel', 'pork', 0.3, 0.01, 0.05, 'retailer'),
  r('hotel', 'non_kosher_food', 0.7, 0.05, 0.2, 'retailer'),
  r('restaurant', 'pork', 0.6, 0.03, 0.2, 'retailer'),
  r('restaurant', 'alcohol', 0.5, 0.02, 0.15, 'retailer'),
  r('restaurant', 'non_kosher_food', 0.9, 0.3, 0.9, 'retailer'),
  r('restaurant', 'coffee', 0.3, 0.02, 0.4, 'retailer'),
  r('restaurant', 'tea', 0.15, 0.01, 0.05, 'retailer'),
  r('grocery', 'alcohol', 0.7, 0.02, 0.1, 'retailer'),
  r('grocery', 'tobacco', 0.6, 0.01, 0.06, 'retailer'),
  r('grocery', 'vaping', 0.2, 0.002, 0.01, 'retailer'),
  r('grocery', 'pork', 0.7, 0.01, 0.06, 'retailer'),
  r('grocery', 'non_kosher_food', 0.8, 0.1, 0.4, 'retailer'),
  r('grocery', 'coffee', 0.5, 0.01, 0.04, 'retailer'),
  r('grocery', 'tea', 0.4, 0.005, 0.02, 'retailer'),
  r('grocery', 'contraceptives', 0.3, 0.001, 0.01, 'retailer'),
  r('meat', 'pork', 0.6, 0.1, 0.6, 'producer'),
  r('meat', 'non_kosher_food', 0.8, 0.3, 0.9, 'producer'),
  r('retail', 'alcohol', 0.5, 0.01, 0.05, 'retailer'),
  r('retail', 'tobacco', 0.4, 0.005, 0.03, 'retailer'),
  r('retail', 'pork', 0.4, 0.005, 0.03, 'retailer'),
  r('retail', 'contraceptives', 0.4, 0.001, 0.005, 'retailer'),
  r('retail', 'weapons', 0.1, 0.005, 0.02, 'retailer'),
  r('retail', 'adult_entertainment', 0.02, 0.001, 0.01, 'retailer'),
  r('retail', 'non_kosher_food', 0.5, 0.02, 0.1, 'retailer'),
  r('defense', 'weapons', 0.9, 0.2, 0.95, 'producer'),
  r('defense', 'weapons_controversial', 0.15, 0.01, 0.1, 'producer'),
  r('pharma', 'contraceptives', 0.3, 0.01, 0.1, 'producer'),
  r('pharma', 'abortion', 0.05, 0.001, 0.02, 'producer'),
  r('pharma', 'embryonic_stem_cell', 0.04, 0.005, 0.05, 'producer'),
  r('pharma', 'cannabis', 0.03, 0.01, 0.1, 'producer'),
  r('biotech', 'embryonic_stem_cell', 0.1, 0.01, 0.3, 'producer'),
  r('biotech', 'human_cloning', 0.01, 0.01, 0.05, 'producer'),
  r('biotech', 'abortion', 0.02, 0.001, 0.02, 'producer'),
  r('cannabis', 'cannabis', 0.7, 0.3, 0.95, 'producer'),
  r('cannabis', 'recreational_drugs', 0.3, 0.1, 0.6, 'producer'),
  r('hospital', 'abortion', 0.05, 0.001, 0.02, 'producer'),
  r('hospital', 'contraceptives', 0.1, 0.001, 0.01, 'retailer'),
  r('media', 'media_entertainment', 0.95, 0.4, 0.95, 'producer'),
  r('media', 'adult_entertainment', 0.08, 0.005, 0.08, 'producer'),
  r('media', 'gambling', 0.05, 0.01, 0.05, 'producer'),
  r('tech', 'media_entertainment', 0.15, 0.02, 0.2, 'producer'),
  r('tech', 'gambling', 0.02, 0.01, 0.1, 'producer'),
  r('tech', 'adult_entertainment', 0.01, 0.001, 0.02, 'distributor'),
  r('tech', 'weapons', 0.03, 0.01, 0.1, 'producer'),
  r('industrial', 'weapons', 0.04, 0.01, 0.15, 'producer'),
  r('any', 'conventional_finance', 0.08, 0.005, 0.06, null),
  r('any', 'media_entertainment', 0.02, 0.005, 0.05, null),
  r('any', 'alcohol', 0.01, 0.005, 0.03, null),
];

/** Typical thresholds some exposures are placed near (5%, 10%, 33%). */
export const NEAR_THRESHOLDS = [0.05, 0.05, 0.1, 0.1, 0.33] as const;

/** Syllables fictional names are built from. */
export const SYLLABLES = [
  'ka',
  'lo',
  'ven',
  'mi',
  'tra',
  'zel',
  'dor',
  'qua',
  'rin',
  'sol',
  'bra',
  'nex',
  'tal',
  'vi',
  'mor',
  'pel',
  'san',
  'ori',
  'lum',
  'cor',
  'da',
  'fen',
  'gal',
  'hir',
  'jo',
  'kel',
  'mar',
  'nov',
  'par',
  'rus',
  'sta',
  'tor',
  'ul',
  'var',
  'wen',
  'xa',
  'yel',
  'zan',
  'bel',
  'cil',
  'dra',
  'el',
  'fa',
  'gro',
  'hal',
  'ira',
  'lin',
  'ost',
] as const;

export const NAME_WORDS: Readonly<Record<IndustryGroup, readonly string[]>> = {
  general: ['Holdings', 'Group', 'Partners', 'Services'],
  tech: ['Technologies', 'Systems', 'Software', 'Labs', 'Digital'],
  energy: ['Energy', 'Resources', 'Mining', 'Petroleum'],
  industrial: ['Industries', 'Engineering', 'Materials', 'Works', 'Logistics'],
  utility: ['Power', 'Utilities', 'Electric'],
  telecom: ['Telecom', 'Networks', 'Communications'],
  retail: ['Stores', 'Retail', 'Outlets'],
  grocery: ['Foods', 'Markets', 'Provisions'],
  restaurant: ['Restaurants', 'Kitchens', 'Dining'],
  hotel: ['Hotels', 'Resorts', 'Hospitality'],
  casino: ['Gaming', 'Entertainment', 'Leisure'],
  brewer: ['Brewing', 'Distillers', 'Spirits'],
  tobacco: ['Tobacco', 'Leaf'],
  meat: ['Meats', 'Protein', 'Farms'],
  soft_drinks: ['Beverages', 'Bottling', 'Drinks'],
  coffee_tea: ['Coffee', 'Tea', 'Roasters'],
  defense: ['Defense', 'Aerospace', 'Arms'],
  pharma: ['Pharma', 'Therapeutics', 'Healthcare'],
  biotech: ['Biosciences', 'Bio', 'Genomics'],
  cannabis: ['Botanicals', 'Herbal'],
  hospital: ['Health', 'Medical', 'Care'],
  media: ['Media', 'Studios', 'Broadcasting'],
  bank: ['Bancorp', 'Bank', 'Financial'],
  insurer: ['Assurance', 'Insurance', 'Re'],
  reit: ['Realty', 'Properties', 'REIT'],
};

/** English legal-form suffix used in each market's company names. */
export const LEGAL_SUFFIX: Readonly<Record<string, string>> = {
  us: 'Inc.',
  ca: 'Inc.',
  mx: 'S.A.B. de C.V.',
  br: 'S.A.',
  gb: 'plc',
  de: 'AG',
  fr: 'SA',
  nl: 'N.V.',
  ch: 'AG',
  it: 'S.p.A.',
  es: 'S.A.',
  se: 'AB',
  no: 'ASA',
  dk: 'A/S',
  fi: 'Oyj',
  be: 'SA/NV',
  pl: 'S.A.',
  tr: 'A.S.',
  il: 'Ltd.',
  sa: 'Co.',
  ae: 'PJSC',
  qa: 'Q.P.S.C.',
  kw: 'K.S.C.P.',
  bh: 'B.S.C.',
  om: 'SAOG',
  eg: 'S.A.E.',
  jo: 'PLC',
  ma: 'S.A.',
  za: 'Ltd',
  ng: 'Plc',
  ke: 'Plc',
  in: 'Ltd.',
  pk: 'Ltd.',
  bd: 'Ltd.',
  my: 'Berhad',
  id: 'Tbk',
  sg: 'Ltd.',
  th: 'PCL',
  vn: 'JSC',
  ph: 'Inc.',
  cn: 'Co., Ltd.',
  hk: 'Holdings Ltd.',
  tw: 'Corp.',
  kr: 'Co., Ltd.',
  jp: 'Corporation',
  au: 'Ltd',
};

/** Fund name endings; the first ones are faith-themed and weighted up in Islamic-finance hubs. */
export const FUND_THEMES = [
  'Shariah Global Equity ETF',
  'Islamic Leaders ETF',
  'Halal Dividend ETF',
  'Shariah Small Cap ETF',
  'Faith Values ETF',
  'Biblical Values Index ETF',
  'Catholic Values Equity ETF',
  'Torah Values Equity ETF',
  'Total Market Index ETF',
  'Dividend Growth ETF',
  'Technology Leaders ETF',
  'Small Cap Index ETF',
  'Emerging Leaders ETF',
  'Quality Factor ETF',
  'Infrastructure ETF',
  'Healthcare Select ETF',
] as const;

/** How many of `FUND_THEMES` are faith-themed (the first ones). */
export const FAITH_FUND_THEMES = 8;
