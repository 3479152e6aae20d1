/**
 * Averaging windows need their month-end prices (docs/frameworks/README.md, "Staleness limits"):
 * a window must reach the month before the screening date's month and miss at most two months
 * after its first month-end; otherwise the ratios on it are insufficient_data, naming the months.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_IDS, screenCompany, type ScreeningInput } from '../../engine/index.ts';
import { assessInputQuality } from '../../engine/input-quality.ts';
import type { Reason } from '../../engine/result-types.ts';
import { baseInput, inputWith } from './fixtures.ts';

/** The base company (screened 2025-06-30) whose month-end prices lack `missing`. */
function missing(months: string[], extra: Record<string, unknown> = {}): ScreeningInput {
  return inputWith({ marketCap: { months24: 24 - months.length, months36: 36 - months.length, missingMonths: months, ...extra } });
}

function reasonOf(input: ScreeningInput, id: 'shariah_djim' | 'shariah_sp', code: string): Reason {
  return screenCompany(input).frameworks[id]!.reasons.find((r) => r.code === code)!;
}

const UP_TO_MAY = ['2025-01', '2025-02', '2025-03', '2025-04', '2025-05'];

describe('month-end prices behind the averages', () => {
  it('when the last price is 200 days old, then DJIM, S&P and AAOIFI are insufficient_data and the reasons name the missing months', () => {
    const input = missing(UP_TO_MAY, { spotPriceDate: '2024-12-12' });
    const result = screenCompany(input);
    for (const id of ['shariah_djim', 'shariah_sp', 'shariah_aaoifi'] as const)
      expect(result.frameworks[id]!.status, id).toBe('insufficient_data');
    const debt = reasonOf(input, 'shariah_djim', 'shariah_djim.interest_bearing_debt');
    expect(debt.result).toBe('insufficient_data');
    expect(debt.message).toContain('no month-end price for 2025-01 to 2025-05');
    expect(result.data_quality.map((n) => n.code)).toEqual(
      expect.arrayContaining(['data_quality.price_stale', 'data_quality.avg24_incomplete', 'data_quality.avg36_incomplete']),
    );
  });

  it('when only the month before the screening date is missing, then the window is incomplete however full the rest is', () => {
    const input = missing(['2025-05']);
    expect(assessInputQuality(input)).toMatchObject({ avg24: 'incomplete', avg36: 'incomplete', missing24: ['2025-05'] });
    expect(reasonOf(input, 'shariah_sp', 'shariah_sp.leverage').message).toContain('no month-end price for 2025-05 (');
    // AAOIFI reads the spot price only, which is fresh.
    expect(screenCompany(input).frameworks.shariah_aaoifi!.status).toBe('compliant');
  });

  it('when two months are missing before the last month-end, then the average is used with a note; three are insufficient_data', () => {
    const two = missing(['2024-11', '2025-02']);
    expect(screenCompany(two).frameworks.shariah_djim!.status).toBe('compliant');
    expect(screenCompany(two).frameworks.shariah_djim!.reasons.some((r) => r.code === 'shariah_djim.short_price_history')).toBe(true);
    const three = missing(['2024-08', '2024-11', '2025-02']);
    expect(screenCompany(three).frameworks.shariah_djim!.status).toBe('insufficient_data');
    expect(reasonOf(three, 'shariah_djim', 'shariah_djim.interest_bearing_debt').message).toContain(
      'no month-end price for 2024-08, 2024-11, 2025-02 (an average needs the month-end before the screening date',
    );
  });

  it('when the missing months lie before the 24-month window, then only the 36-month average is incomplete', () => {
    const input = inputWith({ marketCap: { months36: 33, missingMonths: ['2022-09', '2022-10', '2022-11'] } });
    expect(assessInputQuality(input)).toMatchObject({ avg24: 'ok', avg36: 'incomplete', missing24: [] });
    const result = screenCompany(input);
    expect(result.frameworks.shariah_djim!.status).toBe('compliant');
    expect(result.frameworks.shariah_sp!.status).toBe('insufficient_data');
  });

  it("when months outside the window or the screening date's own month are listed, then they are not counted", () => {
    const input = inputWith({ marketCap: { missingMonths: ['2021-01', '2021-02', '2021-03', '2025-06'] } });
    expect(assessInputQuality(input)).toMatchObject({ avg24: 'ok', avg36: 'ok', missing36: [] });
  });

  it('when nothing is missing, then every screen shares one empty list (nothing allocated per screen)', () => {
    const a = assessInputQuality(baseInput());
    const b = assessInputQuality(inputWith({ marketCap: { missingMonths: [] } }));
    expect(a.missing24).toBe(b.missing36);
    expect(a.missing24).toHaveLength(0);
  });

  it('when month-end prices go missing, then a verdict stands or becomes insufficient_data, never another', () => {
    const month = fc.integer({ min: 0, max: 34 }).map((k) => {
      const index = 2025 * 12 + 4 - k; // 2025-05 back to 2022-07
      return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
    });
    fc.assert(
      fc.property(fc.uniqueArray(month, { maxLength: 8 }), fc.double({ min: 0, max: 8000, noNaN: true }), (months, debt) => {
        const complete = inputWith({ fundamentals: { totalDebt: debt } });
        const gappy = inputWith({ fundamentals: { totalDebt: debt }, marketCap: { missingMonths: [...months].sort() } });
        const before = screenCompany(complete).frameworks;
        const after = screenCompany(gappy).frameworks;
        // A verdict either stands or becomes unknown: a missing month never decides anything. The consensus may
        // also fall from compliant to questionable when the methodologies that lost their verdict could have rejected.
        for (const id of FRAMEWORK_IDS) {
          const allowed = [before[id]!.status, 'insufficient_data'];
          if (id === 'service_consensus' && before[id]!.status === 'compliant') allowed.push('questionable');
          expect(allowed, id).toContain(after[id]!.status);
        }
        // With the month before the screening date missing, neither average may be used.
        const lastMissing = months.includes('2025-05');
        for (const id of ['shariah_djim', 'shariah_sp'] as const)
          expect(lastMissing ? ['insufficient_data'] : [before[id]!.status, 'insufficient_data'], id).toContain(after[id]!.status);
      }),
      { numRuns: 200 },
    );
  });
});
