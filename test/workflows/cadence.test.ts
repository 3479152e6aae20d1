import { describe, expect, it } from 'vitest';
import { CADENCES, backfillChunkSize, cadenceDates } from '../../workflows/cadence.ts';

describe('cadenceDates', () => {
  it('when the cadence is month-end, then the first day and every month end in the range are taken, leap years included', () => {
    expect(cadenceDates('2024-01-01', '2024-04-30', 'month-end')).toEqual([
      '2024-01-01',
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
    ]);
  });

  it('when the range ends mid-period, then its last day is added', () => {
    expect(cadenceDates('2026-09-15', '2026-11-21', 'month-end')).toEqual(['2026-09-15', '2026-09-30', '2026-10-31', '2026-11-21']);
  });

  it('when the cadence is quarter-end, then the first day and the March, June, September and December ends are taken', () => {
    expect(cadenceDates('2009-01-01', '2009-12-31', 'quarter-end')).toEqual([
      '2009-01-01',
      '2009-03-31',
      '2009-06-30',
      '2009-09-30',
      '2009-12-31',
    ]);
  });

  it('when the cadence is year-end from 2009, then history starts on 2009-01-01, then one date per year plus today', () => {
    const dates = cadenceDates('2009-01-01', '2026-11-21', 'year-end');
    expect(dates.slice(0, 2)).toEqual(['2009-01-01', '2009-12-31']);
    expect(dates.at(-2)).toBe('2025-12-31');
    expect(dates.at(-1)).toBe('2026-11-21');
    expect(dates).toHaveLength(19);
  });

  it.each(CADENCES)('when the range starts on a %s date, then that date is taken once', (cadence) => {
    const dates = cadenceDates('2010-12-31', '2011-12-31', cadence);
    expect(dates[0]).toBe('2010-12-31');
    expect(new Set(dates).size).toBe(dates.length);
    expect([...dates].sort()).toEqual(dates);
  });

  it.each(CADENCES)('when a %s backfill starts on any day, then that day is its first date', (cadence) => {
    for (const from of ['2009-01-01', '2012-02-29', '2015-07-16', '2019-11-30']) {
      expect(cadenceDates(from, '2021-06-30', cadence)[0]).toBe(from);
    }
  });

  it('when from is after to, then it refuses the empty range', () => {
    expect(() => cadenceDates('2020-01-02', '2020-01-01', 'month-end')).toThrow(/range is empty/);
  });

  it('when the range is one day, then that day is the only date', () => {
    expect(cadenceDates('2020-05-05', '2020-05-05', 'quarter-end')).toEqual(['2020-05-05']);
    expect(cadenceDates('2020-12-31', '2020-12-31', 'year-end')).toEqual(['2020-12-31']);
  });
});

describe('backfillChunkSize', () => {
  it('when a backfill has more dates, then its chunks hold fewer listings, within 50 to 2,000', () => {
    expect(backfillChunkSize(cadenceDates('2009-01-01', '2026-11-21', 'year-end').length)).toBe(1_894);
    expect(backfillChunkSize(cadenceDates('2009-01-01', '2026-11-21', 'quarter-end').length)).toBe(493);
    expect(backfillChunkSize(cadenceDates('2009-01-01', '2026-11-21', 'month-end').length)).toBe(166);
    expect(backfillChunkSize(1)).toBe(2_000);
    expect(backfillChunkSize(10_000)).toBe(50);
  });
});
