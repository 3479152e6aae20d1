/**
 * The screening engine's input contract: everything the engine needs to screen one company
 * on one date. The warehouse builds these from the lake; tests build them by hand.
 * Amounts are in units of the listing's currency; dates are `YYYY-MM-DD`; shares in 0..1.
 */

/** Business-activity codes for revenue exposures (documented in docs/data/activities.md). */
export const ACTIVITY_CODES = [
  'alcohol',
  'tobacco',
  'vaping',
  'pork',
  'gambling',
  'adult_entertainment',
  'conventional_finance',
  'conventional_insurance',
  'weapons',
  'weapons_controversial',
  'abortion',
  'contraceptives',
  'embryonic_stem_cell',
  'human_cloning',
  'cannabis',
  'recreational_drugs',
  'coffee',
  'tea',
  'media_entertainment',
  'hotels_leisure',
  'non_kosher_food',
  'euthanasia',
  'non_halal_meat',
] as const;

export type ActivityCode = (typeof ACTIVITY_CODES)[number];

export type ListingKind = 'stock' | 'fund';

export interface ListingMeta {
  market: string;
  ticker: string;
  name: string;
  exchangeMic: string;
  currency: string;
  /** SIC code as a 4-digit string, or null when unknown. */
  sic: string | null;
  kind: ListingKind;
  /** The company operates under a heter iska (Jewish-law permit for interest); null = unknown. */
  heterIska: boolean | null;
  /** The company's business operates on Shabbat; null = unknown. */
  operatesOnShabbat: boolean | null;
  /**
   * The company is controlled (majority ownership or management) by Jews; absent/null = unknown,
   * and the halakhic screen then presumes from the issuer's domicile (docs/frameworks/jewish_halakhic.md).
   */
  jewishControlled?: boolean | null;
  /**
   * The issuer's domicile as an ISO 3166-1 alpha-2 code (`US`, `IL`): its country of
   * incorporation, or Israel when its business address is there; absent/null = unknown.
   */
  domicile?: string | null;
}

/** Figures from the latest filing on or before the screening date. Null = not reported. */
export interface Fundamentals {
  periodEnd: string;
  filedOn: string;
  /** Identifier of the filing the figures came from (e.g. an EDGAR accession number). */
  sourceRef: string;
  currency: string;
  totalAssets: number | null;
  totalDebt: number | null;
  cashAndEquivalents: number | null;
  interestBearingInvestments: number | null;
  accountsReceivable: number | null;
  /** Trailing twelve months' total revenue (total income). */
  totalRevenue: number | null;
  /** Trailing twelve months' interest income. */
  interestIncome: number | null;
  /**
   * When `interestIncome` is null: a proven lower bound of it (e.g. this year to date, a
   * positive net of interest expense). It can prove a breach, never a pass
   * (docs/frameworks/README.md, "Interest income known only as a lower bound").
   */
  interestIncomeAtLeast?: number | null;
  /**
   * Lake columns (`interest_income`, `total_revenue`, `total_debt`, …) whose figure is in part
   * an estimate by a documented rule (a quarter reported nowhere, a debt-free reading the
   * balance sheet does not prove): a check resting on one is at most `questionable` (doubt
   * `estimate`), unless what is known alone proves the breach (docs/frameworks/README.md,
   * "Estimated figures"). For interest income, `interestIncomeAtLeast` is then its known part.
   */
  estimatedFigures?: readonly string[];
  sharesOutstanding: number | null;
  /** Trailing twelve months' dividends per share; null when unknown, 0 when none paid. */
  dividendsPerShare: number | null;
  /**
   * Where each figure came from, keyed by lake column (`total_debt`, `interest_income`, …):
   * concept(s) and accession, or why it is missing. Absent when the source does not say.
   */
  figureSources?: Record<string, string>;
}

/** Market capitalisation figures: close × shares outstanding. */
export interface MarketCaps {
  /** Spot market cap on `spotPriceDate`. */
  spot: number | null;
  spotPriceDate: string | null;
  /** Average of month-end market caps over the trailing 24 months. */
  avg24m: number | null;
  /** Average of month-end market caps over the trailing 36 months. */
  avg36m: number | null;
  /** Month-end observations behind each average (fewer than 24/36 = short history). */
  months24: number;
  months36: number;
  /**
   * Months (`YYYY-MM`, oldest first) of the 36-month window without a month-end close, from
   * the window's first one up to the month before the screening date's month; absent or empty
   * when none is missing. Months before the first are a short history; the screening date's own
   * month is never missing (its month-end may be still to come). A close without a share count
   * is not missing: its month only has no cap to average (fewer `months24`/`months36`).
   */
  missingMonths?: readonly string[];
}

/**
 * What an exposure figure rests on (docs/data/activities.md, "Evidence levels"): a vendor's or
 * the sample's reported figure, a revenue concept in the company's filings that names the
 * activity (`retired_concept`: one the taxonomy has since retired, such as `CasinoRevenue` with
 * ASC 606, whose last figure still shows the activity existed), a product/service or segment member of a dimensional revenue fact in the filing's
 * XBRL instance, or the curated list of cited company classifications.
 */
export type ExposureEvidence = 'reported' | 'filing_concept' | 'retired_concept' | 'filing_dimension' | 'curated';

/**
 * How much of a filing's revenue its dimensional revenue facts account for, by members that
 * name no screened activity plus members mapped to one (docs/data/activities.md). A share that
 * accounts for the whole of revenue within the documented tolerance settles the doubt an
 * industry code leaves; less does not.
 */
export interface RevenueAccounting {
  /** Share of total revenue (0..1) the filing's members account for, screened or not. */
  share: number;
  /** Period end of the revenue the share is of (`YYYY-MM-DD`). */
  asOf: string;
  /** The filing's accession and the axis the members are on. */
  sourceRef: string;
}

/**
 * How the company takes part in an activity (docs/data/activities.md, "Involvement"):
 * `producer` makes the product or runs the activity itself (brewer, distiller, cigarette maker,
 * pork processor, casino or bar operator, lender, underwriter, arms maker, studio);
 * `distributor` wholesales or distributes what others make; `retailer` sells it to consumers
 * among other goods (a grocer's beer, a hotel's bar); `ancillary` earns revenue tied to the
 * activity without dealing in it (leasing to a casino, packaging for a brewer).
 */
export const INVOLVEMENTS = ['producer', 'distributor', 'retailer', 'ancillary'] as const;

export type Involvement = (typeof INVOLVEMENTS)[number];

export interface ActivityExposure {
  activity: ActivityCode;
  /** Share of total revenue from this activity, 0..1. */
  revenueShare: number;
  asOf: string;
  sourceRef: string;
  /** Absent = 'reported'. */
  evidence?: ExposureEvidence;
  /** Absent or null = not reported: screens that exclude direct involvement take the conservative default. */
  involvement?: Involvement | null;
}

/** The activity value of an exposure row that says "reviewed: no screened activity" (feed contract). */
export const NO_SCREENED_ACTIVITY = 'none';

/**
 * The activity value of an exposure row that carries a filing's revenue accounting (its
 * `revenue_share` is `RevenueAccounting.share`), read into `ScreeningInput.revenueAccounted`.
 */
export const REVENUE_ACCOUNTED_ACTIVITY = 'revenue_accounted';

export interface ScreeningInput {
  /** The date the verdict is for (`YYYY-MM-DD`): rules in force on this date apply. */
  screeningDate: string;
  listing: ListingMeta;
  fundamentals: Fundamentals | null;
  marketCap: MarketCaps;
  /**
   * Latest known exposure per activity on or before the screening date. An activity without one
   * counts as none only when the company's activities are covered by some evidence (a review, a
   * vendor's rows, a clean SIC code); with no evidence at all business screens are
   * `insufficient_data` (docs/frameworks/README.md, "Business-activity evidence").
   */
  exposures: ActivityExposure[];
  /** Latest date on or before the screening date a source reviewed the company and found no screened activity; absent/null = never. */
  activitiesReviewedOn?: string | null;
  /** The latest filing's accounting of revenue by product/segment members; absent/null = none. */
  revenueAccounted?: RevenueAccounting | null;
  /** True when the inputs come from the synthetic sample universe. */
  synthetic: boolean;
  /** Where the inputs came from (source adapter name and reference), carried into provenance. */
  dataSource: string;
}
