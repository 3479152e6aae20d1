/**
 * A side business an industry class leaves in doubt is not the primary business: it can breach
 * a faith screen's rule only where that rule reaches a minor share or the class's own involvement
 * (docs/frameworks/README.md, "Business-activity evidence").
 */
import { describe, expect, it } from 'vitest';
import { screenCompany, type FrameworkId, type FrameworkResult } from '../../engine/index.ts';
import { inputWith } from './fixtures.ts';

const screen = (patch: Record<string, unknown>, id: FrameworkId): FrameworkResult => screenCompany(inputWith(patch)).frameworks[id]!;
const doubtsAbout = (result: FrameworkResult, word: RegExp) =>
  result.reasons.filter((r) => r.result === 'questionable' && word.test(r.message));

describe('side businesses in doubt against rules that only a main trade breaches', () => {
  it('when a US general-merchandise store has no rows, then the halakhic screen, which questions forbidden foods only as the main trade of a company not controlled by Jews, has no pork doubt', () => {
    const result = screen({ listing: { sic: '5331', domicile: 'US' } }, 'jewish_halakhic');
    expect(doubtsAbout(result, /pork|non-kosher/)).toEqual([]);
    expect(result.status).toBe('compliant');
  });

  it('when a US restaurant chain has no rows, then its main trade is food, kosher or not, and the halakhic screen holds it in doubt, not its pork', () => {
    const result = screen({ listing: { sic: '5812', domicile: 'US' } }, 'jewish_halakhic');
    expect(result.status).toBe('questionable');
    const food = result.reasons.find((r) => r.code === 'jewish_halakhic.non_kosher_food')!;
    expect(food).toMatchObject({ result: 'questionable', doubt: 'ambiguous_evidence', evidence_level: 'industry_code' });
    expect(food.message).toContain('SIC 5812');
    expect(doubtsAbout(result, /No fresh figure reports pork/)).toEqual([]);
  });

  it('when a reviewed restaurant chain reports no screened activity, then the review settles the food doubt', () => {
    const result = screen({ listing: { sic: '5812', domicile: 'US' }, activitiesReviewedOn: '2025-03-31' }, 'jewish_halakhic');
    expect(result.reasons.find((r) => r.code === 'jewish_halakhic.non_kosher_food')).toBeUndefined();
  });

  it('when the grocer is controlled by Jews, then its pork side business is in doubt against the 5% line', () => {
    const result = screen({ listing: { sic: '5411', domicile: 'US', jewishControlled: true, heterIska: true } }, 'jewish_halakhic');
    expect(doubtsAbout(result, /pork/).length).toBeGreaterThan(0);
    expect(result.status).toBe('questionable');
  });

  it('when an amusement company (SIC 7990) has no rows, then USCCB (gambling as the primary business) has no gambling doubt, while the halakhic screen (operators at any share) keeps it', () => {
    const amusement = { listing: { sic: '7990', domicile: 'US' } };
    expect(doubtsAbout(screen(amusement, 'catholic_usccb'), /gambling/)).toEqual([]);
    expect(doubtsAbout(screen(amusement, 'jewish_halakhic'), /gambling/).length).toBeGreaterThan(0);
  });
});
