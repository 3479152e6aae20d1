/**
 * MSCI Islamic Index Series Methodology. Two eras:
 * - msci-islamic-2007 (launch, fatwa March 2007): total debt / total assets < 33.33%; cash +
 *   interest-bearing securities / total assets < 33.33%; accounts receivable / total assets
 *   < 70% (as described in April 2007 commentary);
 * - msci-islamic-3x33: total debt, cash + interest-bearing securities, and accounts receivable
 *   + cash, each over total assets, "may not exceed" 33.33% (operator `<=`); the 30% entry
 *   threshold for non-constituents concerns membership and is named in the reason. Change date unconfirmed; modelled from 2011-05-01 (the May
 *   2011 edition, the earliest later edition located), i.e. the earlier and stricter boundary.
 * Prohibited activities: a company "directly active in" one (a producer or operator) fails
 * whatever its revenue share; otherwise more than 5% of revenue (cumulatively) fails.
 * See docs/frameworks/shariah_msci.md.
 */
import { assertChronological } from '../methodology-versions.ts';
import { defineShariahVersion, type ShariahVersion } from './rule-types.ts';
import type { DirectInvolvement } from '../involvement.ts';

const SOURCE = 'MSCI, MSCI Islamic Index Series Methodology, section 2 (Islamic Index Screens)';

const PROHIBITED_2007 = [
  'alcohol',
  'tobacco',
  'vaping',
  'pork',
  'conventional_finance',
  'conventional_insurance',
  'weapons',
  'weapons_controversial',
  'gambling',
  'media_entertainment',
  'hotels_leisure',
  'adult_entertainment',
  'recreational_drugs',
] as const;

export const MSCI_PROHIBITED = [...PROHIBITED_2007, 'cannabis'] as const;

/** "Directly active in": making the product or running the activity (distillers, bar operators, manufacturers). */
const DIRECTLY_ACTIVE = {
  involvements: Object.fromEntries(MSCI_PROHIBITED.map((a) => [a, ['producer'] as const])) as DirectInvolvement,
  label: 'Directly active in a prohibited activity (MSCI 2.1)',
  source: `${SOURCE}, 2.1 Business Activity Screening: "directly active in, or derive more than 5% of their revenue (cumulatively) from" a prohibited activity`,
};

/** The published entry threshold concerns index membership; the screen applies the limit (docs/frameworks/shariah_msci.md). */
const ENTRY_NOTE = 'Non-constituents enter the index only at or below 30% (the published entry threshold).';

const income = {
  includeInterest: false,
  rule: {
    code: 'shariah_msci.prohibited_revenue',
    metric: 'non_permissible_income_to_total_income',
    label: 'Revenue from prohibited activities (cumulative) / total revenue',
    threshold: 0.05,
    operator: '<=',
    kind: 'revenue',
    source: `${SOURCE}, 2.1 Business Activity Screening: more than 5% of revenue fails`,
  },
} as const;

export const MSCI_VERSIONS: readonly ShariahVersion[] = [
  defineShariahVersion({
    framework: 'shariah_msci',
    version: 'msci-islamic-2007',
    effectiveFrom: '1900-01-01',
    effectiveFromConfirmed: false,
    source: `${SOURCE} (2007 launch edition)`,
    prohibited: PROHIBITED_2007,
    coreBusinessShare: 0.5,
    directInvolvement: DIRECTLY_ACTIVE,
    averageWindow: null,
    purification: 'dividend_ratio',
    ratioRules: [
      {
        concept: 'debt',
        ratio: 'debt_to_assets',
        rule: {
          code: 'shariah_msci.debt',
          metric: 'debt_to_assets',
          label: 'Total debt / total assets',
          threshold: 0.3333,
          operator: '<',
          kind: 'balance_sheet',
          source: `${SOURCE} (2007): less than 33.33%`,
        },
      },
      {
        concept: 'cash',
        ratio: 'cash_and_securities_to_assets',
        rule: {
          code: 'shariah_msci.cash_and_securities',
          metric: 'cash_and_securities_to_assets',
          label: 'Cash + interest-bearing securities / total assets',
          threshold: 0.3333,
          operator: '<',
          kind: 'balance_sheet',
          source: `${SOURCE} (2007): less than 33.33%`,
        },
      },
      {
        concept: 'receivables',
        ratio: 'receivables_to_assets',
        rule: {
          code: 'shariah_msci.receivables',
          metric: 'receivables_to_assets',
          label: 'Accounts receivable / total assets',
          threshold: 0.7,
          operator: '<',
          kind: 'balance_sheet',
          source: `${SOURCE} (2007): less than 70%`,
        },
      },
    ],
    income,
  }),
  defineShariahVersion({
    framework: 'shariah_msci',
    version: 'msci-islamic-3x33',
    effectiveFrom: '2011-05-01',
    effectiveFromConfirmed: false,
    source: `${SOURCE}, 2.2 Financial Screening`,
    prohibited: MSCI_PROHIBITED,
    coreBusinessShare: 0.5,
    directInvolvement: DIRECTLY_ACTIVE,
    averageWindow: null,
    purification: 'dividend_ratio',
    ratioRules: [
      {
        concept: 'debt',
        ratio: 'debt_to_assets',
        rule: {
          code: 'shariah_msci.debt',
          metric: 'debt_to_assets',
          label: 'Total debt / total assets',
          threshold: 0.3333,
          operator: '<=',
          kind: 'balance_sheet',
          note: ENTRY_NOTE,
          source: `${SOURCE}, 2.2: may not exceed 33.33% (30% for non-constituents)`,
        },
      },
      {
        concept: 'cash',
        ratio: 'cash_and_securities_to_assets',
        rule: {
          code: 'shariah_msci.cash_and_securities',
          metric: 'cash_and_securities_to_assets',
          label: 'Cash + interest-bearing securities / total assets',
          threshold: 0.3333,
          operator: '<=',
          kind: 'balance_sheet',
          note: ENTRY_NOTE,
          source: `${SOURCE}, 2.2: may not exceed 33.33% (30% for non-constituents)`,
        },
      },
      {
        concept: 'liquidity',
        ratio: 'receivables_and_cash_to_assets',
        rule: {
          code: 'shariah_msci.receivables_and_cash',
          metric: 'receivables_and_cash_to_assets',
          label: 'Accounts receivable + cash / total assets',
          threshold: 0.3333,
          operator: '<=',
          kind: 'balance_sheet',
          note: ENTRY_NOTE,
          source: `${SOURCE}, 2.2: may not exceed 33.33% (30% for non-constituents)`,
        },
      },
    ],
    income,
  }),
];

assertChronological(MSCI_VERSIONS);
