/**
 * Screening a company's month ends in a row reuses the faith frameworks' results while what they
 * read is unchanged (engine/screen-series.ts); every result must still equal a screen from scratch.
 */
import { describe, expect, it } from 'vitest';
import { compactResult, compactResultJson } from '../../activities/snapshot-rows.ts';
import { screenCompany, type ActivityExposure, type ScreeningInput } from '../../engine/index.ts';
import { SeriesScreener } from '../../engine/screen-series.ts';
import { packResult, TextBook } from '../../warehouse/methodology-texts.ts';
import { baseInput } from './fixtures.ts';

/** Month ends from January 2009 to October 2026 (214 dates). */
function monthEnds(): string[] {
  const dates: string[] = [];
  for (let year = 2009; year <= 2026; year++) {
    for (let month = 1; month <= 12 && !(year === 2026 && month > 10); month++) {
      const day = new Date(Date.UTC(year, month, 0)).getUTCDate();
      dates.push(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
    }
  }
  return dates;
}

const DATES = monthEnds();
const DELISTED_AFTER = '2024-01-31';
const PRICE_GAP = '2016-05-31';

function monthsBack(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
}

/**
 * One company's month ends: a filing each quarter (filed two months after its period), a price
 * that moves every month, exposures reported in some years only (so they go stale and come back),
 * a heter iska granted in 2018, one month without a price, and no price after its delisting.
 */
function companySeries(ticker: string, sic: string | null, exposureShare: number): ScreeningInput[] {
  return DATES.map((date, i) => {
    const input = baseInput();
    input.screeningDate = date;
    input.listing = { ...input.listing, ticker, sic, heterIska: date >= '2018-01-01' ? true : null, jewishControlled: ticker === 'JEW' };
    const quarterEnd = monthsBack(date, 2 + (Number(date.slice(5, 7)) % 3));
    input.fundamentals = {
      ...input.fundamentals!,
      periodEnd: quarterEnd,
      filedOn: monthsBack(date, Number(date.slice(5, 7)) % 3),
      sourceRef: `acc-${ticker}-${quarterEnd}`,
      totalDebt: 1000 + 25 * Math.floor(i / 3),
      interestIncome: i % 7 === 0 ? null : 50,
    };
    const price = 9 + Math.sin(i / 5) * 4;
    // After the delisting the last close stays, and month-end caps drop out of the trailing windows.
    const monthsDelisted = Math.max(0, i - DATES.indexOf(DELISTED_AFTER));
    const months24 = Math.max(0, Math.min(24, i + 1) - monthsDelisted);
    const months36 = Math.max(0, Math.min(36, i + 1) - monthsDelisted);
    const gap = date === PRICE_GAP;
    input.marketCap = gap
      ? { spot: null, spotPriceDate: null, avg24m: null, avg36m: null, months24: 0, months36: 0 }
      : {
          spot: price * 1000,
          spotPriceDate: monthsDelisted > 0 ? DELISTED_AFTER : date,
          avg24m: months24 === 0 ? null : 10000 + 100 * Math.cos(i / 7),
          avg36m: months36 === 0 ? null : 10000,
          months24,
          months36,
        };
    const reportedIn = (year: number): boolean => year <= 2011 || (year >= 2015 && year <= 2019) || year >= 2023;
    const year = Number(date.slice(0, 4));
    const exposures: ActivityExposure[] = [];
    if (reportedIn(year)) {
      // Re-reported once a year: the exposure rows of one year are the same for twelve month ends.
      exposures.push({ activity: 'alcohol', revenueShare: exposureShare, asOf: `${year}-01-15`, sourceRef: `10-K ${year}` });
      if (year >= 2023)
        exposures.push({ activity: 'gambling', revenueShare: 0.01, asOf: `${year}-01-15`, sourceRef: `10-K ${year}`, involvement: null });
    }
    input.exposures = exposures;
    return input;
  });
}

const COMPANIES = [
  companySeries('BASE', '3560', 0.03),
  companySeries('BREW', '2082', 0.4),
  companySeries('CASI', '7011', 0.049),
  companySeries('JEW', '5812', 0.002),
  companySeries('NOSIC', null, 0.2),
];

describe('screening a series of dates with reuse', () => {
  it('when each company is screened month end after month end, then every result deep-equals a screen from scratch', () => {
    const series = new SeriesScreener();
    for (const company of COMPANIES) {
      for (const input of company)
        expect(series.screen(input), `${input.listing.ticker} ${input.screeningDate}`).toStrictEqual(screenCompany(input));
    }
    // The fast path ran (else this test would prove nothing): most month ends reuse all four faith results.
    expect(series.reused).toBeGreaterThan(COMPANIES.length * DATES.length * 2);
  });

  it('when a filing stays, then the Shariah results on total assets are handed back and those on market cap are computed afresh', () => {
    const series = new SeriesScreener();
    const company = COMPANIES[0]!;
    const results = company.map((input) => series.screen(input));
    const pairs = company.slice(1).map((input, i) => ({
      date: input.screeningDate,
      sameFiling: company[i]!.fundamentals!.sourceRef === input.fundamentals!.sourceRef,
      before: results[i]!.frameworks,
      now: results[i + 1]!.frameworks,
    }));
    // The price moves every month: the methodologies on market cap never hand a result back.
    const priceKept = pairs.flatMap((p) =>
      (['shariah_aaoifi', 'shariah_djim', 'shariah_sp'] as const).filter((id) => p.now[id] === p.before[id]),
    );
    expect(priceKept).toStrictEqual([]);
    // A new filing recomputes FTSE and MSCI; the same filing on the next month end may reuse them.
    const onTotalAssets = ['shariah_ftse', 'shariah_msci'] as const;
    const keptAcrossFilings = pairs.filter((p) => !p.sameFiling && onTotalAssets.some((id) => p.now[id] === p.before[id]));
    expect(keptAcrossFilings.map((p) => p.date)).toStrictEqual([]);
    const kept = pairs.filter((p) => p.sameFiling && onTotalAssets.every((id) => p.now[id] === p.before[id]));
    // Not every month of a filing: this company's debt and interest income also move between filings, which recomputes.
    expect(kept.length).toBeGreaterThan(DATES.length / 5);
  });

  it('when companies are interleaved date by date, then no result is taken from another company', () => {
    const series = new SeriesScreener();
    for (let d = 0; d < DATES.length; d++) {
      for (const company of COMPANIES) expect(series.screen(company[d]!)).toStrictEqual(screenCompany(company[d]!));
    }
  });

  it('when a month has no price or the company is delisted, then the frameworks on market cap are not compliant (fail closed)', () => {
    const series = new SeriesScreener();
    const statuses = new Map(
      COMPANIES[0]!.map((input) => [
        input.screeningDate,
        Object.fromEntries(Object.entries(series.screen(input).frameworks).map(([id, f]) => [id, f!.status])),
      ]),
    );
    expect(statuses.get(PRICE_GAP)).toMatchObject({
      shariah_aaoifi: 'insufficient_data',
      shariah_djim: 'insufficient_data',
      shariah_sp: 'insufficient_data',
    });
    const delisted = [...statuses].filter(([date]) => date > DELISTED_AFTER);
    // The spot price is stale: AAOIFI (spot market cap) at once; the averages once too few month ends remain.
    expect(delisted.filter(([, s]) => s.shariah_aaoifi !== 'insufficient_data')).toStrictEqual([]);
    const late = delisted.filter(([date]) => date > '2025-12-31');
    expect(late.length).toBeGreaterThan(0);
    expect(late.filter(([, s]) => s.shariah_djim === 'compliant' || s.shariah_sp === 'compliant')).toStrictEqual([]);
    // The month before the gap and the one before the delisting are decided (what changes is the price).
    for (const date of ['2016-04-30', DELISTED_AFTER]) {
      expect(['shariah_aaoifi', 'shariah_djim', 'shariah_sp'].map((id) => statuses.get(date)![id])).not.toContain('insufficient_data');
    }
  });

  it('when a new filing lands or exposures change, then the results differ from the month before as they do from scratch', () => {
    const series = new SeriesScreener();
    const company = COMPANIES[1]!;
    const results = company.map((input) => series.screen(input));
    // 2011-12 → 2012-01: the alcohol exposure goes unreported (none after 2011): the faith verdicts move.
    const before = results[DATES.indexOf('2011-12-31')]!;
    const after = results[DATES.indexOf('2012-01-31')]!;
    expect(after.frameworks.christian_bri).not.toBe(before.frameworks.christian_bri);
    expect(after.frameworks.christian_bri).toStrictEqual(screenCompany(company[DATES.indexOf('2012-01-31')]!).frameworks.christian_bri);
    // Within a year with the same exposure rows, the faith results are the very same object.
    const june = results[DATES.indexOf('2016-06-30')]!;
    const july = results[DATES.indexOf('2016-07-31')]!;
    expect(july.frameworks.lds_mormon).toBe(june.frameworks.lds_mormon);
    expect(july.frameworks.shariah_aaoifi).not.toBe(june.frameworks.shariah_aaoifi);
  });

  it('when stored as compact JSON, then the cached framework parts give the bytes of a from-scratch result', () => {
    const series = new SeriesScreener();
    const [reusedBook, freshBook] = [new TextBook(), new TextBook()];
    for (const company of COMPANIES) {
      for (const input of company) {
        const stored = compactResultJson(series.screen(input), reusedBook);
        expect(stored).toBe(JSON.stringify(packResult(compactResult(screenCompany(input)), freshBook)));
      }
    }
    expect(reusedBook.rows).toStrictEqual(freshBook.rows);
  });
});
