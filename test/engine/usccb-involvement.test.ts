/**
 * USCCB 2021 judges tobacco by involvement: production is excluded at any share, sale is not
 * named. An activity known only from the industry code takes the involvement of the code's
 * SIC division (docs/data/activities.md, "Involvement").
 */
import { describe, expect, it } from 'vitest';
import { screenCompany, type Reason } from '../../engine/index.ts';
import { inputWith } from './fixtures.ts';

const usccb = (patch: Record<string, unknown>) => screenCompany(inputWith(patch)).frameworks.catholic_usccb!;
const tobacco = (reasons: readonly Reason[]) => reasons.find((r) => r.code === 'catholic_usccb.tobacco');

describe('USCCB tobacco production and contraceptive manufacture, by involvement', () => {
  it('when a tobacco wholesaler is known by its SIC code alone (5194), then the production rule does not exclude it', () => {
    const result = usccb({ listing: { sic: '5194' } });
    expect(tobacco(result.reasons)).toMatchObject({ result: 'pass' });
    expect(tobacco(result.reasons)!.message).toContain('producers only');
    expect(result.status).not.toBe('non_compliant');
  });

  it('when a cigarette maker is known by its SIC code alone (2111), then it is a producer and excluded', () => {
    const result = usccb({ listing: { sic: '2111' } });
    expect(tobacco(result.reasons)).toMatchObject({ result: 'fail', threshold: 0, operator: '<=', within_limit: false });
    expect(result.status).toBe('non_compliant');
  });

  it('when a general-merchandise store has no rows, then no doubt about selling tobacco reaches the production rule', () => {
    const result = usccb({ listing: { sic: '5331' } });
    const doubts = result.reasons.filter((r) => r.result === 'questionable' && /tobacco/.test(r.message));
    expect(doubts).toEqual([]);
  });

  it('when a tobacco retailer reports 8% of revenue, then the check passes and names the retailer as not directly active', () => {
    const result = usccb({
      exposures: [{ activity: 'tobacco', revenueShare: 0.08, asOf: '2025-01-01', sourceRef: 'seg', involvement: 'retailer' }],
    });
    expect(result.status).toBe('compliant');
    expect(tobacco(result.reasons)!.message).toMatch(/not excluded: the text names producers only.*as a retailer \(not directly active\)/);
  });

  it('when tobacco involvement is not reported, then the conservative default makes it questionable, saying so', () => {
    const result = usccb({ exposures: [{ activity: 'tobacco', revenueShare: 0.08, asOf: '2025-01-01', sourceRef: 'seg' }] });
    expect(tobacco(result.reasons)).toMatchObject({ result: 'questionable', doubt: 'ambiguous_evidence' });
    expect(tobacco(result.reasons)!.message).toContain('involvement is not reported');
  });

  it('when a contraceptive manufacturer reports 1% of revenue, then it is excluded whatever the share, in both editions', () => {
    const maker = { activity: 'contraceptives', revenueShare: 0.01, involvement: 'producer', sourceRef: 'seg' };
    expect(usccb({ exposures: [{ ...maker, asOf: '2025-01-01' }] }).status).toBe('non_compliant');
    const in2010 = usccb({
      screeningDate: '2010-06-30',
      fundamentals: { periodEnd: '2010-03-31', filedOn: '2010-05-01' },
      marketCap: { spotPriceDate: '2010-06-30' },
      exposures: [{ ...maker, asOf: '2010-01-01' }],
    });
    expect(in2010).toMatchObject({ status: 'non_compliant', methodology_version: 'usccb-sri-2003' });
  });
});
