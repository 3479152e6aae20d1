/**
 * Interest income known only as a lower bound (docs/frameworks/README.md, "Interest income known
 * only as a lower bound"): the bound counts towards the non-permissible income limit, so it can
 * prove a breach, but a total under the limit is never a pass while interest income is unknown.
 */
import { describe, expect, it } from 'vitest';
import { screenCompany, type ScreeningInput } from '../../engine/index.ts';
import type { Reason } from '../../engine/result-types.ts';
import { baseInput } from './fixtures.ts';

/** Revenue 5,000; AAOIFI's limit on non-permissible income is 5% of it (250). */
function withFloor(interestIncomeAtLeast: number | null | undefined): ScreeningInput {
  const input = baseInput();
  input.fundamentals = {
    ...input.fundamentals!,
    interestIncome: null,
    ...(interestIncomeAtLeast === undefined ? {} : { interestIncomeAtLeast }),
  };
  return input;
}

const incomeReason = (input: ScreeningInput): Reason =>
  screenCompany(input).frameworks.shariah_aaoifi!.reasons.find((r) => r.code === 'shariah_aaoifi.non_permissible_income')!;

describe('interest income known only as a lower bound', () => {
  it('when the lower bound alone breaches the income limit, then the check fails and AAOIFI is non-compliant', () => {
    const input = withFloor(300);
    const reason = incomeReason(input);
    expect(reason).toMatchObject({ result: 'fail', value: 0.06 });
    expect(reason.message).toContain('proven lower bound of 6.00% of revenue');
    expect(screenCompany(input).frameworks.shariah_aaoifi!.status).toBe('non_compliant');
  });

  it('when the lower bound is under the limit, then the check is insufficient_data, never a pass', () => {
    const input = withFloor(100);
    const reason = incomeReason(input);
    expect(reason.result).toBe('insufficient_data');
    expect(reason.message).toContain('beyond its proven lower bound of 2.00% of revenue');
    expect(screenCompany(input).frameworks.shariah_aaoifi!.status).toBe('insufficient_data');
  });

  it('when the lower bound sits exactly at the 5% limit, then the check is still not a pass (at most 5% is within the limit)', () => {
    expect(incomeReason(withFloor(250)).result).toBe('insufficient_data');
  });

  it('when there is no bound, a zero bound or a malformed one, then the check is insufficient_data without a bound in its message', () => {
    for (const floor of [undefined, null, 0, -5, Number.NaN]) {
      const reason = incomeReason(withFloor(floor));
      expect(reason.result, String(floor)).toBe('insufficient_data');
      expect(reason.message, String(floor)).not.toContain('lower bound');
    }
  });

  it('when interest income itself is reported, then a stray lower bound is ignored', () => {
    const input = baseInput();
    input.fundamentals = { ...input.fundamentals!, interestIncome: 50, interestIncomeAtLeast: 4000 };
    expect(incomeReason(input)).toMatchObject({ result: 'pass', value: 0.01 });
  });
});
