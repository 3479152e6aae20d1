import { describe, expect, it } from 'vitest';
import { yyyymmddOf, marketCapAveragesOn, monthIndexOf, type MonthEndCap } from '../../warehouse/market-cap-averages.ts';

/** A cap for the month of `day` (`YYYY-MM-DD`, the month's last close). */
const cap = (day: string, value: number | null): MonthEndCap => ({ monthIndex: monthIndexOf(day), day: yyyymmddOf(day), cap: value });

/** Month-end caps of 2020-01 … 2023-12: month n (0-based) has cap n + 1. */
const FOUR_YEARS: MonthEndCap[] = Array.from({ length: 48 }, (_, n) => {
  const year = 2020 + Math.floor(n / 12);
  const month = String((n % 12) + 1).padStart(2, '0');
  return cap(`${year}-${month}-28`, n + 1);
});

describe('marketCapAveragesOn', () => {
  it('when a listing has no month-end caps, then both averages are null and count no months', () => {
    expect(marketCapAveragesOn([], '2024-01-31')).toEqual({ avg24m: null, avg36m: null, months24: 0, months36: 0 });
  });

  it('when every cap of the window is null (no close or no share count), then the averages are null, never zero', () => {
    expect(marketCapAveragesOn([cap('2023-11-30', null), cap('2023-12-29', null)], '2023-12-31')).toEqual({
      avg24m: null,
      avg36m: null,
      months24: 0,
      months36: 0,
    });
  });

  it('when the date is a month end, then the window is its own month and the 35 (23) before it', () => {
    // 2023-12: month 48; 36 months back from it is 2021-01 (13 … 48), 24 back is 2022-01 (25 … 48).
    expect(marketCapAveragesOn(FOUR_YEARS, '2023-12-31')).toEqual({
      avg24m: (25 + 48) / 2,
      avg36m: (13 + 48) / 2,
      months24: 24,
      months36: 36,
    });
  });

  it("when the date falls before its month's last close, then that month's cap is not yet known and is left out", () => {
    expect(marketCapAveragesOn(FOUR_YEARS, '2023-12-27')).toEqual({
      avg24m: (25 + 47) / 2,
      avg36m: (13 + 47) / 2,
      months24: 23,
      months36: 35,
    });
    expect(marketCapAveragesOn(FOUR_YEARS, '2023-12-28').months36).toBe(36);
  });

  it('when the date is before every cap, then nothing is averaged (no look-ahead)', () => {
    expect(marketCapAveragesOn(FOUR_YEARS, '2019-12-31')).toEqual({ avg24m: null, avg36m: null, months24: 0, months36: 0 });
  });

  it('when a month has a close but no share count (null cap), then it is skipped and not counted, but its price is not missing', () => {
    const caps = [cap('2023-10-31', 10), cap('2023-11-30', null), cap('2023-12-29', 20)];
    expect(marketCapAveragesOn(caps, '2023-12-31')).toEqual({ avg24m: 15, avg36m: 15, months24: 2, months36: 2 });
  });

  it('when a month has no close at all, then it is named missing', () => {
    const caps = [cap('2023-09-29', 10), cap('2023-10-31', null), cap('2023-12-29', 20)];
    expect(marketCapAveragesOn(caps, '2023-12-31')).toEqual({
      avg24m: 15,
      avg36m: 15,
      months24: 2,
      months36: 2,
      missingMonths: ['2023-11'],
    });
  });

  it('when caps differ by orders of magnitude, then they are added oldest first, as the query added them', () => {
    const caps = [cap('2023-10-31', 1e16), cap('2023-11-30', 1), cap('2023-12-29', 1)];
    // ((1e16 + 1) + 1) = 1e16 in doubles; adding newest first would give 1e16 + 2.
    expect(marketCapAveragesOn(caps, '2023-12-31').avg36m).toBe((1e16 + 1 + 1) / 3);
    expect(marketCapAveragesOn(caps, '2023-12-31').avg36m).not.toBe((1 + 1 + 1e16) / 3);
  });

  it('when prices stop months before the date, then the months from the last cap up to the month before the date are missing', () => {
    // A last close on 2023-06-28 screened on 2023-12-31 (186 days): 2023-07 … 2023-11 are missing; December's month-end may be to come.
    const missing = marketCapAveragesOn(FOUR_YEARS.slice(0, 42), '2023-12-31').missingMonths;
    expect(missing).toEqual(['2023-07', '2023-08', '2023-09', '2023-10', '2023-11']);
  });

  it("when the date's own month has no cap yet, then only the months before it can be missing", () => {
    expect(marketCapAveragesOn(FOUR_YEARS, '2023-12-27')).not.toHaveProperty('missingMonths');
    expect(marketCapAveragesOn(FOUR_YEARS.slice(0, 46), '2023-12-27').missingMonths).toEqual(['2023-11']);
  });

  it('when months are absent between caps, then each is named once, oldest first, and months before the first cap are short history', () => {
    // 2021-03 … 2023-12 (the window's first cap is 2021-03: 2021-01 and -02 are short history), without 2022-05 and 2023-02.
    const caps = FOUR_YEARS.slice(14).filter(
      (c) => c.monthIndex !== monthIndexOf('2022-05-01') && c.monthIndex !== monthIndexOf('2023-02-01'),
    );
    expect(marketCapAveragesOn(caps, '2023-12-31')).toMatchObject({ months36: 32, months24: 22, missingMonths: ['2022-05', '2023-02'] });
  });

  it('when the history is complete, then no list of missing months is made', () => {
    expect(marketCapAveragesOn(FOUR_YEARS, '2023-12-31')).not.toHaveProperty('missingMonths');
    expect(marketCapAveragesOn(FOUR_YEARS, '2023-12-15')).not.toHaveProperty('missingMonths');
  });
});
