/**
 * Dow Jones Islamic Market Indices (S&P Dow Jones Indices), "Dow Jones Islamic Market Indices
 * Methodology", Appendix I (Sector-Based and Accounting-Based Screens). Three eras:
 * - classic: debt, cash + interest-bearing securities, and receivables, each / trailing
 *   24-month average market cap < 33%;
 * - 2023-03: receivables screen dropped (public summaries; date unconfirmed);
 * - 2023-09: cash screen dropped; interest-bearing debt / 24-month average market cap < 33%,
 *   with a membership buffer above the limit only (a constituent stays up to 35%); the 5% limit
 *   counts all interest income (public summaries; date unconfirmed).
 *   See docs/frameworks/shariah_djim.md.
 */
import { assertChronological } from '../methodology-versions.ts';
import type { ThresholdRuleSpec } from '../threshold-check.ts';
import { defineShariahVersion, type ShariahConcept, type ShariahVersion } from './rule-types.ts';
import type { RatioKey } from '../result-types.ts';

const SOURCE = 'S&P Dow Jones Indices, Dow Jones Islamic Market Indices Methodology, Appendix I';

export const DJIM_PROHIBITED = [
  'alcohol',
  'pork',
  'conventional_finance',
  'conventional_insurance',
  'tobacco',
  'vaping',
  'weapons',
  'weapons_controversial',
  'gambling',
  'adult_entertainment',
  'media_entertainment',
  'hotels_leisure',
  'cannabis',
  'recreational_drugs',
] as const;

/**
 * Public summaries of the 2023 revision describe a buffer above the limit only: a constituent is
 * removed once the ratio exceeds 35%, a non-constituent enters below 33%. It concerns index
 * membership, which a security-level verdict does not know, so the screen applies the 33% limit
 * and names the buffer (docs/frameworks/shariah_djim.md).
 */
const DJIM_BUFFER_NOTE = "An existing index constituent is kept up to 35% (the provider's buffer, above the limit only).";

type RatioRuleSpec = { concept: ShariahConcept; ratio: RatioKey; rule: ThresholdRuleSpec };

const debtClassic: RatioRuleSpec = {
  concept: 'debt',
  ratio: 'debt_to_market_cap_24m',
  rule: {
    code: 'shariah_djim.debt',
    metric: 'debt_to_market_cap_24m',
    label: 'Total debt / trailing 24-month average market cap',
    threshold: 0.33,
    operator: '<',
    kind: 'balance_sheet',
    source: `${SOURCE}, Accounting-Based Screens (leverage)`,
  },
};

const cashClassic: RatioRuleSpec = {
  concept: 'cash',
  ratio: 'cash_and_securities_to_market_cap_24m',
  rule: {
    code: 'shariah_djim.cash_and_securities',
    metric: 'cash_and_securities_to_market_cap_24m',
    label: 'Cash + interest-bearing securities / trailing 24-month average market cap',
    threshold: 0.33,
    operator: '<',
    kind: 'balance_sheet',
    source: `${SOURCE}, Accounting-Based Screens (cash)`,
  },
};

const receivablesClassic: RatioRuleSpec = {
  concept: 'receivables',
  ratio: 'receivables_to_market_cap_24m',
  rule: {
    code: 'shariah_djim.receivables',
    metric: 'receivables_to_market_cap_24m',
    label: 'Accounts receivable / trailing 24-month average market cap',
    threshold: 0.33,
    operator: '<',
    kind: 'balance_sheet',
    source: `${SOURCE}, Accounting-Based Screens (receivables)`,
  },
};

const incomeExInterest = {
  includeInterest: false,
  rule: {
    code: 'shariah_djim.non_permissible_income',
    metric: 'non_permissible_income_to_total_income',
    label: 'Revenue from prohibited activities (interest excluded) / total revenue',
    threshold: 0.05,
    operator: '<',
    kind: 'revenue',
    source: `${SOURCE}, Sector-Based Screens (modelled as a 5% revenue limit)`,
  },
} as const;

export const DJIM_VERSIONS: readonly ShariahVersion[] = [
  defineShariahVersion({
    framework: 'shariah_djim',
    version: 'djim-classic-24m',
    effectiveFrom: '1900-01-01',
    effectiveFromConfirmed: false,
    source: SOURCE,
    prohibited: DJIM_PROHIBITED,
    coreBusinessShare: 0.5,
    averageWindow: 24,
    purification: 'dividend_ratio',
    ratioRules: [debtClassic, cashClassic, receivablesClassic],
    income: incomeExInterest,
  }),
  defineShariahVersion({
    framework: 'shariah_djim',
    version: 'djim-2023-03',
    // Public summaries: receivables screen dropped in March 2023. Modelled at the March 2023
    // quarterly rebalancing (effective Monday 2023-03-20); the exact date is unconfirmed.
    effectiveFrom: '2023-03-20',
    effectiveFromConfirmed: false,
    source: `${SOURCE} (2023 revision, per public summaries)`,
    prohibited: DJIM_PROHIBITED,
    coreBusinessShare: 0.5,
    averageWindow: 24,
    purification: 'dividend_ratio',
    ratioRules: [debtClassic, cashClassic],
    income: incomeExInterest,
  }),
  defineShariahVersion({
    framework: 'shariah_djim',
    version: 'djim-2023-09',
    // Public summaries: cash screen dropped in September 2023. Modelled at the September 2023
    // quarterly rebalancing (effective Monday 2023-09-18); the exact date is unconfirmed.
    effectiveFrom: '2023-09-18',
    effectiveFromConfirmed: false,
    source: `${SOURCE} (2023 revision, per public summaries)`,
    prohibited: DJIM_PROHIBITED,
    coreBusinessShare: 0.5,
    averageWindow: 24,
    purification: 'dividend_ratio',
    ratioRules: [
      {
        concept: 'debt',
        ratio: 'debt_to_market_cap_24m',
        rule: {
          code: 'shariah_djim.interest_bearing_debt',
          metric: 'debt_to_market_cap_24m',
          label: 'Interest-bearing debt / trailing 24-month average market cap',
          threshold: 0.33,
          operator: '<',
          kind: 'balance_sheet',
          proxy: 'debt_total_for_interest_bearing',
          note: DJIM_BUFFER_NOTE,
          source: `${SOURCE}, Accounting-Based Screens (2023 revision)`,
        },
      },
    ],
    income: {
      includeInterest: true,
      rule: {
        code: 'shariah_djim.non_permissible_income',
        metric: 'non_permissible_income_to_total_income',
        label: 'Non-permissible income (all interest income included) / total revenue',
        threshold: 0.05,
        operator: '<',
        kind: 'revenue',
        source: `${SOURCE} (2023 revision, per public summaries)`,
      },
    },
  }),
];

assertChronological(DJIM_VERSIONS);
