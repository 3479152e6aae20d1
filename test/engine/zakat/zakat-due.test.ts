import { describe, expect, it } from 'vitest';
import { roundTo, exactOf, dividedBy } from '../../../engine/zakat/exact-amount.ts';
import { zakatDue, type ZakatInput } from '../../../engine/zakat/zakat-due.ts';

const figures = {
  cash_and_equivalents: 1_000_000,
  accounts_receivable: 300_000,
  inventory: 200_000,
  current_liabilities: 500_000,
  shares_outstanding: 100_000,
};

const input = (over: Partial<ZakatInput> = {}): ZakatInput => ({
  method: 'long_term',
  year: 'lunar',
  holding: { shares: 50 },
  price: 40,
  figures,
  splitsSinceFiling: 1,
  ...over,
});

describe('zakatDue', () => {
  it('when every figure is reported, then long-term zakat is 2.5% of the holding’s share of cash + receivables + inventory − current liabilities', () => {
    // (1,000,000 + 300,000 + 200,000 − 500,000) ÷ 100,000 = 10 a share; 50 shares → 500; × 0.025 = 12.50.
    const out = zakatDue(input());
    expect(out).toMatchObject({
      status: 'computed',
      netZakatableAssets: 1_000_000,
      zakatableAssetsPerShare: 10,
      zakatBase: 500,
      zakatDue: 12.5,
      shares: 50,
      marketValue: 2000,
      missing: [],
    });
  });

  it('when the year is solar, then the rate is 2.5775%', () => {
    expect(zakatDue(input({ year: 'solar' }))).toMatchObject({ rate: 0.025775, zakatDue: 12.89 });
  });

  it('when the value held is sent, then the shares are value ÷ close, computed exactly', () => {
    // 1,000 ÷ 30 = 33.333… shares × 10 = 333.333…; × 0.025 = 8.3333… → 8.33.
    const out = zakatDue(input({ holding: { value: 1000 }, price: 30 }));
    expect(out).toMatchObject({ status: 'computed', shares: 33.333333, marketValue: 1000, zakatBase: 333.33, zakatDue: 8.33 });
  });

  it('when decimal figures would round in doubles, then the amount is still the exact decimal result', () => {
    // 0.1 + 0.2 − 0.3 is 0 exactly, not 5.55e-17: no zakat, and no "negative" note.
    const out = zakatDue(
      input({ figures: { ...figures, cash_and_equivalents: 0.1, accounts_receivable: 0.2, inventory: 0, current_liabilities: 0.3 } }),
    );
    expect(out).toMatchObject({ zakatableAssetsPerShare: 0, zakatDue: 0, notes: [] });
  });

  it('when current liabilities exceed the zakatable assets, then nothing is due on them and a note says why', () => {
    const out = zakatDue(input({ figures: { ...figures, current_liabilities: 2_000_000 } }));
    expect(out).toMatchObject({ status: 'computed', netZakatableAssets: -500_000, zakatableAssetsPerShare: 0, zakatDue: 0 });
    expect(out.notes[0]).toMatch(/current liabilities exceed cash, receivables and inventory/);
  });

  it('when a split followed the filing, then the per-share figure is on the as-of basis', () => {
    const out = zakatDue(input({ splitsSinceFiling: 4 }));
    expect(out).toMatchObject({ zakatableAssetsPerShare: 2.5, zakatBase: 125, zakatDue: 3.13 });
    expect(out.notes).toEqual([expect.stringMatching(/filing's share count × 4/)]);
  });

  it.each([
    ['inventory', /^inventory \(inventory\): not reported in the filing in force$/],
    ['current_liabilities', /^current_liabilities \(current liabilities\): not reported/],
    ['accounts_receivable', /^accounts_receivable \(receivables\): not reported/],
    ['cash_and_equivalents', /^cash_and_equivalents/],
    ['shares_outstanding', /^shares_outstanding/],
  ] as const)('when %s is missing, then insufficient_data names it and no amount is guessed', (name, pattern) => {
    const out = zakatDue(input({ figures: { ...figures, [name]: null } }));
    expect(out).toMatchObject({ status: 'insufficient_data', zakatDue: null, zakatBase: null, zakatableAssetsPerShare: null });
    expect(out.missing).toEqual([expect.stringMatching(pattern)]);
  });

  it('when no filing is in force, then insufficient_data says so', () => {
    const out = zakatDue(input({ figures: null }));
    expect(out.status).toBe('insufficient_data');
    expect(out.missing[0]).toMatch(/a filing in force on the as-of date/);
  });

  it('when the trading method is asked, then zakat is on the market value and needs no filing', () => {
    expect(zakatDue(input({ method: 'trading', figures: null }))).toMatchObject({ status: 'computed', zakatBase: 2000, zakatDue: 50 });
    expect(zakatDue(input({ method: 'trading', holding: { value: 1234.56 }, price: null }))).toMatchObject({ zakatDue: 30.86 });
  });

  it('when shares are sent but no close is known, then the trading method is insufficient_data naming the close', () => {
    const out = zakatDue(input({ method: 'trading', price: null }));
    expect(out).toMatchObject({ status: 'insufficient_data', zakatDue: null, marketValue: null });
    expect(out.missing[0]).toMatch(/close price on the as-of date/);
  });

  it('rounds half away from zero, once', () => {
    expect(roundTo(exactOf(0.125), 2)).toBe(0.13);
    expect(roundTo(exactOf(-0.125), 2)).toBe(-0.13);
    expect(roundTo(dividedBy(exactOf(1), exactOf(3)), 6)).toBe(0.333333);
    expect(roundTo(exactOf(2.675), 2)).toBe(2.68);
  });
});
