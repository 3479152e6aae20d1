/**
 * FTSE Shariah Global Equity Index Series (screening by Yasaar Ltd), Ground Rules and FTSE
 * Russell's series page: debt < 33.333% of total assets; cash and interest-bearing items
 * < 33.333% of total assets; accounts receivable and cash < 50% of total assets; total interest
 * and non-compliant activities income should not exceed 5% of total revenue. Pork production,
 * packaging and processing, non-halal food production (meat not certified halal) and weapons
 * manufacturing are excluded at any revenue share (the activity list names those forms). 33.333% is stored
 * as the published decimal 0.33333, not 1/3. See docs/frameworks/shariah_ftse.md.
 */
import { assertChronological } from '../methodology-versions.ts';
import { defineShariahVersion, type ShariahVersion } from './rule-types.ts';

const SOURCE = 'FTSE Russell, FTSE Shariah Global Equity Index Series Ground Rules (Yasaar screening)';

export const FTSE_PROHIBITED = [
  'conventional_finance',
  'conventional_insurance',
  'alcohol',
  'pork',
  'non_halal_meat',
  'gambling',
  'adult_entertainment',
  'media_entertainment',
  'hotels_leisure',
  'tobacco',
  'vaping',
  'weapons',
  'weapons_controversial',
  'cannabis',
  'recreational_drugs',
] as const;

/** The activities whose listed form is direct involvement, excluded at any share. */
const NAMED_FORMS = {
  involvements: {
    pork: ['producer', 'distributor'],
    non_halal_meat: ['producer'],
    weapons: ['producer'],
    weapons_controversial: ['producer'],
  },
  label: 'Activity form named in the exclusion list (FTSE)',
  source:
    `${SOURCE}, Business Activity Screening: "pork related products and non-halal food production, packaging and processing"; ` +
    `"weapons, arms and defence manufacturing"`,
} as const;

export const FTSE_VERSIONS: readonly ShariahVersion[] = [
  defineShariahVersion({
    framework: 'shariah_ftse',
    version: 'ftse-yasaar-assets',
    effectiveFrom: '1900-01-01',
    effectiveFromConfirmed: false,
    source: SOURCE,
    prohibited: FTSE_PROHIBITED,
    coreBusinessShare: 0.5,
    directInvolvement: NAMED_FORMS,
    averageWindow: null,
    purification: 'dividend_ratio',
    ratioRules: [
      {
        concept: 'debt',
        ratio: 'debt_to_assets',
        rule: {
          code: 'shariah_ftse.debt',
          metric: 'debt_to_assets',
          label: 'Debt / total assets',
          threshold: 0.33333,
          operator: '<',
          kind: 'balance_sheet',
          source: `${SOURCE}: debt is less than 33.333% of total assets`,
        },
      },
      {
        concept: 'cash',
        ratio: 'cash_and_securities_to_assets',
        rule: {
          code: 'shariah_ftse.cash_and_interest_bearing_items',
          metric: 'cash_and_securities_to_assets',
          label: 'Cash and interest-bearing items / total assets',
          threshold: 0.33333,
          operator: '<',
          kind: 'balance_sheet',
          source: `${SOURCE}: cash and interest-bearing items are less than 33.333% of total assets`,
        },
      },
      {
        concept: 'liquidity',
        ratio: 'receivables_and_cash_to_assets',
        rule: {
          code: 'shariah_ftse.receivables_and_cash',
          metric: 'receivables_and_cash_to_assets',
          label: 'Accounts receivable and cash / total assets',
          threshold: 0.5,
          operator: '<',
          kind: 'balance_sheet',
          source: `${SOURCE}: accounts receivable and cash are less than 50% of total assets`,
        },
      },
    ],
    income: {
      includeInterest: true,
      rule: {
        code: 'shariah_ftse.non_permissible_income',
        metric: 'non_permissible_income_to_total_income',
        label: 'Total interest and non-compliant activities income / total revenue',
        threshold: 0.05,
        operator: '<=',
        kind: 'revenue',
        source: `${SOURCE}: should not exceed 5% of total revenue`,
      },
    },
  }),
];

assertChronological(FTSE_VERSIONS);
