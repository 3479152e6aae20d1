import { describe, expect, it } from 'vitest';
import { screenCompany, type ScreeningInput } from '../../engine/index.ts';
import type { Reason } from '../../engine/result-types.ts';
import { baseInput } from './fixtures.ts';

const SOURCES = {
  total_debt: 'us-gaap:LongTermDebtCurrent + us-gaap:LongTermDebtNoncurrent @ 0009999901-25-000011',
  cash_and_equivalents: 'us-gaap:CashAndCashEquivalentsAtCarryingValue @ 0009999901-25-000011',
  interest_bearing_investments: 'us-gaap:MarketableSecuritiesCurrent @ 0009999901-25-000011',
  interest_income: 'not reported: interest income not reported apart',
  total_revenue: 'us-gaap:Revenues @ 0009999901-25-000004, 0009999901-25-000011 (TTM = …)',
  shares_outstanding: 'dei:EntityCommonStockSharesOutstanding @ 0009999901-25-000011',
};

function withSources(patch: Partial<NonNullable<ScreeningInput['fundamentals']>> = {}): ScreeningInput {
  const input = baseInput();
  input.fundamentals = { ...input.fundamentals!, figureSources: SOURCES, ...patch };
  return input;
}

const reasonOf = (input: ScreeningInput, framework: 'shariah_aaoifi' | 'shariah_msci', code: string): Reason =>
  screenCompany(input).frameworks[framework]!.reasons.find((r) => r.code === code)!;

describe('ratio reasons name the figures behind them', () => {
  it('when the filing records its figure sources, then the debt check lists debt and shares with their concepts and accession', () => {
    const reason = reasonOf(withSources(), 'shariah_aaoifi', 'shariah_aaoifi.interest_bearing_debt');
    expect(reason.inputs).toEqual([
      { name: 'total_debt', value: 1000, source: SOURCES.total_debt },
      { name: 'shares_outstanding', value: 1000, source: SOURCES.shares_outstanding },
    ]);
  });

  it('when a figure is missing, then the insufficient_data reason carries it as null with the reason it is missing', () => {
    const reason = reasonOf(withSources({ interestIncome: null }), 'shariah_aaoifi', 'shariah_aaoifi.non_permissible_income');
    expect(reason.result).toBe('insufficient_data');
    expect(reason.inputs).toContainEqual({ name: 'interest_income', value: null, source: SOURCES.interest_income });
  });

  it('when an asset-based ratio uses a figure without a recorded source, then that input has a name and value only', () => {
    const reason = reasonOf(withSources(), 'shariah_msci', 'shariah_msci.debt');
    expect(reason.inputs).toEqual([
      { name: 'total_debt', value: 1000, source: SOURCES.total_debt },
      { name: 'total_assets', value: 10000 },
    ]);
  });

  it('when the filing records no figure sources (synthetic data), then no reason carries inputs', () => {
    const result = screenCompany(baseInput());
    const reasons = Object.values(result.frameworks).flatMap((f) => f!.reasons);
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons.some((r) => r.inputs !== undefined)).toBe(false);
  });
});
