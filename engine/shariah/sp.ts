/**
 * S&P Dow Jones Indices, "S&P Shariah Indices Methodology", Eligibility Criteria,
 * Accounting-Based Screens: leverage (debt / 36-month average market value of equity < 33%),
 * cash (receivables / same < 49%; cash + interest-bearing securities / same < 33%) and revenue
 * share from non-permissible activities other than interest income < 5%. The Sector-Based
 * Screens exclude businesses that offer the excluded products and services: a producer fails
 * whatever its revenue share. The averaging window
 * is 36 months in the methodology documents (2014, 2016, 2021 editions); some third-party
 * summaries say 12 months. See docs/frameworks/shariah_sp.md.
 */
import { assertChronological } from '../methodology-versions.ts';
import { defineShariahVersion, type ShariahVersion } from './rule-types.ts';
import type { DirectInvolvement } from '../involvement.ts';

const SOURCE = 'S&P Dow Jones Indices, S&P Shariah Indices Methodology, Accounting-Based Screens';

export const SP_PROHIBITED = [
  'alcohol',
  'pork',
  'conventional_finance',
  'conventional_insurance',
  'tobacco',
  'vaping',
  'gambling',
  'adult_entertainment',
  'media_entertainment',
  'human_cloning',
  'cannabis',
  'recreational_drugs',
] as const;

/** Sector-Based Screens: a business offering the excluded product or service itself. */
const SECTOR_SCREENS = {
  involvements: Object.fromEntries(SP_PROHIBITED.map((a) => [a, ['producer'] as const])) as DirectInvolvement,
  label: 'Sector-based screen (S&P)',
  source: `${SOURCE.replace('Accounting-Based Screens', 'Sector-Based Screens')}: businesses that offer excluded products or services`,
};

export const SP_VERSIONS: readonly ShariahVersion[] = [
  defineShariahVersion({
    framework: 'shariah_sp',
    version: 'sp-shariah-36m',
    effectiveFrom: '1900-01-01',
    effectiveFromConfirmed: false,
    source: SOURCE,
    prohibited: SP_PROHIBITED,
    coreBusinessShare: 0.5,
    directInvolvement: SECTOR_SCREENS,
    averageWindow: 36,
    purification: 'dividend_ratio',
    ratioRules: [
      {
        concept: 'debt',
        ratio: 'debt_to_market_cap_36m',
        rule: {
          code: 'shariah_sp.leverage',
          metric: 'debt_to_market_cap_36m',
          label: 'Debt / 36-month average market value of equity',
          threshold: 0.33,
          operator: '<',
          kind: 'balance_sheet',
          source: `${SOURCE} (Leverage Compliance)`,
        },
      },
      {
        concept: 'cash',
        ratio: 'cash_and_securities_to_market_cap_36m',
        rule: {
          code: 'shariah_sp.cash_and_securities',
          metric: 'cash_and_securities_to_market_cap_36m',
          label: 'Cash + interest-bearing securities / 36-month average market value of equity',
          threshold: 0.33,
          operator: '<',
          kind: 'balance_sheet',
          source: `${SOURCE} (Cash Compliance)`,
        },
      },
      {
        concept: 'receivables',
        ratio: 'receivables_to_market_cap_36m',
        rule: {
          code: 'shariah_sp.receivables',
          metric: 'receivables_to_market_cap_36m',
          label: 'Accounts receivable / 36-month average market value of equity',
          threshold: 0.49,
          operator: '<',
          kind: 'balance_sheet',
          source: `${SOURCE} (Cash Compliance)`,
        },
      },
    ],
    income: {
      includeInterest: false,
      rule: {
        code: 'shariah_sp.non_permissible_income',
        metric: 'non_permissible_income_to_total_income',
        label: 'Non-permissible income other than interest income / revenue',
        threshold: 0.05,
        operator: '<',
        kind: 'revenue',
        source: `${SOURCE} (Revenue Share from Non-Permissible Activities)`,
      },
    },
  }),
];

assertChronological(SP_VERSIONS);
