/** When a debt figure is a proxy for interest-bearing debt (docs/frameworks/README.md, "Proxies and estimates"). */
import { describe, expect, it } from 'vitest';
import { debtIsTotalOnly, TOTAL_ONLY_DEBT_CONCEPTS } from '../../engine/proxies.ts';
import { DEBT } from '../../sources/edgar/edgar-concepts.ts';
import { baseInput } from './fixtures.ts';

const withDebtSource = (source: string | undefined) => {
  const f = baseInput().fundamentals!;
  return source === undefined ? f : { ...f, figureSources: { total_debt: source } };
};

describe('debt totals as proxies', () => {
  it("when the engine lists total-only debt concepts, then they are exactly the EDGAR adapter's totals", () => {
    expect([...TOTAL_ONLY_DEBT_CONCEPTS].sort()).toEqual(DEBT.total.flat().sort());
  });

  it('when the filing reports only a debt total, then the figure is a proxy', () => {
    expect(debtIsTotalOnly(withDebtSource('us-gaap:LongTermDebt @ 0000950170-25-000001'))).toBe(true);
    expect(
      debtIsTotalOnly(withDebtSource('us-gaap:DebtInstrumentCarryingAmount + us-gaap:ShortTermBorrowings @ 0000950170-25-000001')),
    ).toBe(true);
  });

  it('when the debt comes from borrowing lines, no source is recorded, or no filing, then it is not a proxy', () => {
    expect(debtIsTotalOnly(withDebtSource('us-gaap:LongTermDebtNoncurrent + us-gaap:DebtCurrent @ 0000950170-25-000001'))).toBe(false);
    expect(
      debtIsTotalOnly(
        withDebtSource('us-gaap:LongTermDebtCurrent + us-gaap:LongTermDebtNoncurrent @ 0000950170-25-000001 (LongTermDebt not added)'),
      ),
    ).toBe(false);
    expect(debtIsTotalOnly(withDebtSource(undefined))).toBe(false);
    expect(debtIsTotalOnly(null)).toBe(false);
  });
});
