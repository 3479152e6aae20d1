/**
 * AAOIFI Shari'ah Standard No. 21 (Financial Papers: Shares and Bonds), clause 3/4: shares of
 * companies whose core business is permissible but which deal in interest may be held when
 * interest-bearing borrowing and interest-bearing deposits each do not exceed 30% of market
 * capitalisation and prohibited income does not exceed 5% of total income. "Does not exceed"
 * means the limit itself passes: operator `<=`. See docs/frameworks/shariah_aaoifi.md.
 */
import { assertChronological } from '../methodology-versions.ts';
import { defineShariahVersion, type ShariahVersion } from './rule-types.ts';

const SOURCE = "AAOIFI Shari'ah Standard No. 21, Financial Papers (Shares and Bonds), clause 3/4";

export const AAOIFI_PROHIBITED = [
  'alcohol',
  'pork',
  'gambling',
  'adult_entertainment',
  'conventional_finance',
  'conventional_insurance',
  'tobacco',
  'vaping',
  'cannabis',
  'recreational_drugs',
] as const;

export const AAOIFI_VERSIONS: readonly ShariahVersion[] = [
  defineShariahVersion({
    framework: 'shariah_aaoifi',
    version: 'aaoifi-ss21',
    // SS21 was issued in the mid-2000s, before the service's history starts (2009-01-01).
    effectiveFrom: '1900-01-01',
    effectiveFromConfirmed: false,
    source: SOURCE,
    prohibited: AAOIFI_PROHIBITED,
    coreBusinessShare: 0.5,
    averageWindow: null,
    purification: 'impermissible_income_per_share',
    ratioRules: [
      {
        concept: 'debt',
        ratio: 'debt_to_market_cap_spot',
        rule: {
          code: 'shariah_aaoifi.interest_bearing_debt',
          metric: 'debt_to_market_cap_spot',
          label: 'Interest-bearing debt / market capitalisation',
          threshold: 0.3,
          operator: '<=',
          kind: 'balance_sheet',
          proxy: 'debt_total_for_interest_bearing',
          source: `${SOURCE}: interest-bearing borrowing not to exceed 30% of market capitalisation`,
        },
      },
      {
        concept: 'cash',
        ratio: 'cash_and_securities_to_market_cap_spot',
        rule: {
          code: 'shariah_aaoifi.interest_bearing_deposits',
          metric: 'cash_and_securities_to_market_cap_spot',
          label: 'Interest-bearing deposits and securities (cash + interest-bearing investments as proxy) / market capitalisation',
          threshold: 0.3,
          operator: '<=',
          kind: 'balance_sheet',
          proxy: 'cash_for_interest_bearing_deposits',
          source: `${SOURCE}: interest-bearing deposits not to exceed 30% of market capitalisation`,
        },
      },
    ],
    income: {
      includeInterest: true,
      rule: {
        code: 'shariah_aaoifi.non_permissible_income',
        metric: 'non_permissible_income_to_total_income',
        label: 'Non-permissible income (interest included) / total income',
        threshold: 0.05,
        operator: '<=',
        kind: 'revenue',
        source: `${SOURCE}: prohibited income not to exceed 5% of total income`,
      },
    },
  }),
];

assertChronological(AAOIFI_VERSIONS);
