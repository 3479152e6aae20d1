/**
 * Figures that are in part estimates (docs/frameworks/README.md, "Estimated figures"): a check
 * resting on one is at most questionable (doubt `estimate`), unless the known part alone proves
 * the breach; the filing's age decides nothing new (a 10-K 15 months old is still used, 17 is not).
 */
import { describe, expect, it } from 'vitest';
import { screenCompany, type ScreeningInput } from '../../engine/index.ts';
import type { Reason } from '../../engine/result-types.ts';
import { baseInput } from './fixtures.ts';

/** Revenue 5,000; AAOIFI's income limit is 5% of it (250). Interest income estimated, `known` of it reported. */
function estimatedInterest(interestIncome: number, known: number, estimated: readonly string[] = ['interest_income']): ScreeningInput {
  const input = baseInput();
  input.fundamentals = { ...input.fundamentals!, interestIncome, interestIncomeAtLeast: known, estimatedFigures: estimated };
  return input;
}

const reasonOf = (input: ScreeningInput, id: 'shariah_aaoifi' | 'shariah_djim', code: string): Reason =>
  screenCompany(input).frameworks[id]!.reasons.find((r) => r.code === `${id}.${code}`)!;

describe('estimated interest income (one quarter reported nowhere)', () => {
  it('when the estimate is under the limit, then the income check is questionable (estimate), never a pass', () => {
    const input = estimatedInterest(60, 45);
    expect(reasonOf(input, 'shariah_aaoifi', 'non_permissible_income')).toMatchObject({ result: 'questionable', doubt: 'estimate' });
    expect(screenCompany(input).frameworks.shariah_aaoifi!.status).toBe('questionable');
  });

  it('when the same figure is not marked as an estimate, then the check passes (the mark alone makes the doubt)', () => {
    const input = estimatedInterest(60, 45, []);
    expect(reasonOf(input, 'shariah_aaoifi', 'non_permissible_income').result).toBe('pass');
  });

  it('when the reported months alone breach the limit, then the breach is decided: non-compliant', () => {
    const input = estimatedInterest(400, 300);
    expect(reasonOf(input, 'shariah_aaoifi', 'non_permissible_income')).toMatchObject({ result: 'fail' });
    expect(screenCompany(input).frameworks.shariah_aaoifi!.status).toBe('non_compliant');
  });

  it('when only the estimated quarter takes the total over the limit, then the breach is questionable (estimate)', () => {
    const input = estimatedInterest(300, 225);
    expect(reasonOf(input, 'shariah_aaoifi', 'non_permissible_income')).toMatchObject({ result: 'questionable', doubt: 'estimate' });
  });

  it('when revenue is the estimate, then even a breach the reported interest makes is in doubt (the share of an estimated revenue proves nothing)', () => {
    const input = estimatedInterest(400, 400, ['total_revenue']);
    expect(reasonOf(input, 'shariah_aaoifi', 'non_permissible_income')).toMatchObject({ result: 'questionable', doubt: 'estimate' });
  });

  it('when DJIM (before 2023) leaves interest out of its income limit, then an estimated interest income changes nothing there', () => {
    const input = estimatedInterest(60, 45);
    input.screeningDate = '2022-06-30';
    input.marketCap.spotPriceDate = '2022-06-30';
    input.fundamentals = { ...input.fundamentals!, periodEnd: '2022-03-31', filedOn: '2022-05-01' };
    expect(reasonOf(input, 'shariah_djim', 'non_permissible_income').result).toBe('pass');
  });

  it('when interest income is estimated, then the purification says its amount is an estimate', () => {
    const result = screenCompany(estimatedInterest(60, 45));
    expect(result.frameworks.shariah_aaoifi!.purification?.proxy).toMatch(/^an estimate: interest income or revenue/);
  });
});

describe('an estimated debt of 0', () => {
  it('when debt is 0 only as an estimate, then the debt checks pass no longer: questionable (estimate)', () => {
    const input = baseInput();
    input.fundamentals = { ...input.fundamentals!, totalDebt: 0, estimatedFigures: ['total_debt'] };
    const debt = reasonOf(input, 'shariah_aaoifi', 'interest_bearing_debt');
    expect(debt).toMatchObject({ result: 'questionable', doubt: 'estimate' });
    expect(debt.message).toContain('in part an estimate');
    expect(screenCompany(input).frameworks.shariah_aaoifi!.status).toBe('questionable');
  });

  it('when debt is a proven 0, then the debt check passes', () => {
    const input = baseInput();
    input.fundamentals = { ...input.fundamentals!, totalDebt: 0 };
    expect(reasonOf(input, 'shariah_aaoifi', 'interest_bearing_debt').result).toBe('pass');
  });
});

describe('the age of the filing the figures come from', () => {
  const aged = (periodEnd: string): ScreeningInput => {
    const input = baseInput();
    input.fundamentals = { ...input.fundamentals!, periodEnd, filedOn: '2024-06-01' };
    return input;
  };

  it('when the latest filing is a 10-K whose year ended 15 months before the screening date, then its figures still decide', () => {
    expect(screenCompany(aged('2024-03-31')).frameworks.shariah_aaoifi!.status).toBe('compliant');
  });

  it('when it ended 17 months before, then the figures are stale and the ratio checks insufficient_data', () => {
    const result = screenCompany(aged('2024-01-31'));
    expect(result.frameworks.shariah_aaoifi!.status).toBe('insufficient_data');
    const debt = result.frameworks.shariah_aaoifi!.reasons.find((r) => r.code === 'shariah_aaoifi.interest_bearing_debt')!;
    expect(debt.message).toContain('older than the staleness limit');
  });
});
