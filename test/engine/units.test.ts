/** Unit tests for the small pure helpers: dates, era, status combination, filter errors, views. */
import { describe, expect, it } from 'vitest';
import { dayNumber, isIsoDate, monthsBefore } from '../../engine/dates.ts';
import {
  ENGINE_REVISION_DATE,
  FRAMEWORKS,
  FRAMEWORK_IDS,
  eraFor,
  filterFrameworks,
  isImprovement,
  screenCompany,
} from '../../engine/index.ts';
import { inputWith } from './fixtures.ts';

describe('dates', () => {
  it('when a string is a real calendar date, then isIsoDate accepts it and rejects the rest', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2025-13-01')).toBe(false);
    expect(isIsoDate('2025-6-30')).toBe(false);
  });

  it('when counting days, then day numbers match the Unix epoch', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('2025-06-30') - dayNumber('2025-06-20')).toBe(10);
    expect(dayNumber('2025-03-01') - dayNumber('2024-02-28')).toBe(367);
  });

  it('when stepping back months, then the day clamps to the month end', () => {
    expect(monthsBefore('2025-06-30', 16)).toBe('2024-02-29');
    expect(monthsBefore('2025-03-31', 1)).toBe('2025-02-28');
    expect(monthsBefore('2025-01-15', 24)).toBe('2023-01-15');
  });
});

describe('era and identity', () => {
  it('when a snapshot is dated before the revision date, then its era is legacy', () => {
    expect(eraFor('2026-07-03')).toBe('legacy');
    expect(eraFor(ENGINE_REVISION_DATE)).toBe('current');
    expect(eraFor('2030-01-01')).toBe('current');
  });

  it('when listing frameworks, then the ten spec ids come with labels and traditions', () => {
    expect(FRAMEWORKS.map((f) => f.id)).toEqual([...FRAMEWORK_IDS]);
    expect(FRAMEWORK_IDS.filter((id) => id.startsWith('shariah_'))).toHaveLength(5);
  });

  it('when screened, then the result names engine version, revision date and era', () => {
    const r = screenCompany(inputWith({ screeningDate: '2015-03-31' }));
    expect(r.engine_revision_date).toBe('2026-07-04');
    expect(r.era).toBe('legacy');
    expect(r.frameworks_returned).toEqual([...FRAMEWORK_IDS]);
  });
});

describe('statuses', () => {
  it('when judging improvement, then only leaving non_compliant or reaching compliant counts', () => {
    expect(isImprovement('non_compliant', 'insufficient_data')).toBe(true);
    expect(isImprovement('questionable', 'compliant')).toBe(true);
    expect(isImprovement('insufficient_data', 'questionable')).toBe(false);
    expect(isImprovement('compliant', 'questionable')).toBe(false);
  });
});

describe('screenCompany input contract', () => {
  it('when the screening date is malformed, then it throws a RangeError naming the format', () => {
    expect(() => screenCompany(inputWith({ screeningDate: '30/06/2025' }))).toThrow(/YYYY-MM-DD/);
  });
});

describe('filterFrameworks', () => {
  const full = screenCompany(inputWith({}));

  it('when an unknown id is requested, then it throws listing the valid ids', () => {
    expect(() => filterFrameworks(full, ['shariah_aaoifi', 'halal_x'])).toThrow(/halal_x.*valid ids: shariah_aaoifi/);
  });

  it('when no Shariah framework is requested, then madhhab_views and purification are dropped', () => {
    const r = filterFrameworks(full, ['lds_mormon']);
    expect(r.madhhab_views).toBeUndefined();
    expect(r.purification_per_share).toBeNull();
    expect(r.frameworks_returned).toEqual(['lds_mormon']);
  });
});

describe('madhhab_views', () => {
  it('when book equity is negative, then asset-based methodologies fail on debt and the views show the split', () => {
    const r = screenCompany(
      inputWith({ fundamentals: { totalAssets: 5000, totalDebt: 6000 }, marketCap: { spot: 100000, avg24m: 100000, avg36m: 100000 } }),
    );
    const v = r.madhhab_views!;
    expect(v.by_framework.shariah_ftse).toBe('non_compliant');
    expect(v.by_framework.shariah_aaoifi).toBe('compliant');
    expect(v.strict).toBe('non_compliant');
    expect(v.majority).toBe('compliant');
    expect(v.lenient).toBe('compliant');
    expect(v.agreement).toBe('majority');
    const debt = v.disagreements.find((d) => d.concept === 'debt');
    expect(debt?.failing.sort()).toEqual(['shariah_ftse', 'shariah_msci']);
    expect(debt?.passing.sort()).toEqual(['shariah_aaoifi', 'shariah_djim', 'shariah_sp']);
  });
});
