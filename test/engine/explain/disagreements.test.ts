import { describe, expect, it } from 'vitest';
import { explainDisagreements, type PairExplanation } from '../../../engine/explain/disagreements.ts';
import { screenCompany, type FrameworkId, type ScreeningResult } from '../../../engine/index.ts';
import { compactResult } from '../../../activities/snapshot-rows.ts';
import { inputWith, type Patch } from '../fixtures.ts';

function explained(patch: Patch, result?: ScreeningResult) {
  const screened = result ?? screenCompany(inputWith(patch));
  return explainDisagreements({ frameworks: screened.frameworks, ratios: screened.ratios, reasonsKept: 'all' });
}

function pair(pairs: PairExplanation[], a: FrameworkId, b: FrameworkId): PairExplanation {
  const found = pairs.find((p) => p.frameworks[0] === a && p.frameworks[1] === b);
  if (!found) throw new Error(`no pair ${a}/${b} among ${pairs.map((p) => p.frameworks.join('/')).join(', ')}`);
  return found;
}

describe('explainDisagreements on crafted companies', () => {
  it('when AAOIFI divides debt by today’s market value and S&P by the 36-month average, then the window and the threshold decide, in plain words', () => {
    const out = explained({ fundamentals: { totalDebt: 3120 }, marketCap: { avg24m: 10800, avg36m: 10800 } });
    const p = pair(out.disagreements, 'shariah_aaoifi', 'shariah_sp');
    expect(p.statuses).toEqual(['non_compliant', 'compliant']);
    expect(p.checks).toHaveLength(1);
    const [check] = p.checks;
    expect(check!.topic).toBe('debt');
    expect(check!.differences).toEqual(['window', 'threshold']);
    expect(check!.explanation).toBe(
      "AAOIFI divides interest-bearing debt by today's market value: 31.2% > 30%, fails; " +
        'S&P divides interest-bearing debt by the 36-month average market value: 28.9% < 33%, passes.',
    );
    expect(check!.sides[0].check).toMatchObject({ value: 0.312, threshold: 0.3, operator: '<=', window: 'spot', stored: true });
    expect(check!.sides[0].check!.margin).toBeCloseTo(-0.012, 12);
    expect(check!.sides[1].check).toMatchObject({ threshold: 0.33, operator: '<', window: '36m', result: 'pass' });
    expect(check!.sides[1].check!.value).toBeCloseTo(3120 / 10800, 12);
    expect(p.summary).toBe('AAOIFI non_compliant, S&P compliant: decided by debt (window, threshold)');
  });

  it('when AAOIFI divides debt by market value and FTSE by total assets, then the denominator decides', () => {
    const out = explained({ fundamentals: { totalDebt: 2000 }, marketCap: { spot: 5000, avg24m: 5000, avg36m: 5000 } });
    const p = pair(out.disagreements, 'shariah_aaoifi', 'shariah_ftse');
    expect(p.checks.map((c) => [c.topic, c.differences])).toEqual([['debt', ['denominator', 'threshold']]]);
    expect(p.checks[0]!.explanation).toBe(
      "AAOIFI divides interest-bearing debt by today's market value: 40% > 30%, fails; " +
        'FTSE divides interest-bearing debt by total assets: 20% < 33.333%, passes.',
    );
  });

  it('when FTSE and MSCI divide debt by total assets under limits 0.00003 apart, then the threshold alone decides', () => {
    const out = explained({ fundamentals: { totalDebt: 3333.2 } });
    const p = pair(out.disagreements, 'shariah_ftse', 'shariah_msci');
    expect(p.statuses).toEqual(['compliant', 'non_compliant']);
    expect(p.checks.map((c) => [c.topic, c.differences])).toEqual([['debt', ['threshold']]]);
    expect(p.checks[0]!.explanation).toBe(
      'FTSE divides interest-bearing debt by total assets: 33.332% < 33.333%, passes; ' +
        'MSCI divides interest-bearing debt by total assets: 33.332% > 33.33%, fails.',
    );
  });

  it('when media is most of a company’s revenue, then S&P’s business rule, which AAOIFI does not have, and the income it counts decide', () => {
    const out = explained({
      exposures: [{ activity: 'media_entertainment', revenueShare: 0.6, asOf: '2025-05-01', sourceRef: 'acc-base-10q' }],
    });
    const p = pair(out.disagreements, 'shariah_aaoifi', 'shariah_sp');
    expect(p.statuses).toEqual(['compliant', 'non_compliant']);
    expect(p.checks.map((c) => [c.topic, c.differences])).toEqual([
      ['business.media_entertainment', ['business_rule', 'rule_absent']],
      ['income', ['numerator', 'threshold']],
    ]);
    expect(p.checks[0]!.sides[0]).toMatchObject({ framework: 'shariah_aaoifi', check: null });
    expect(p.checks[0]!.explanation).toBe(
      'AAOIFI does not screen out media entertainment; S&P limits media entertainment revenue to at most 50%: 60% > 50%, fails.',
    );
    expect(p.checks[1]!.explanation).toBe(
      'AAOIFI divides non-permissible income by total income: 1% < 5%, passes; S&P divides non-permissible income by total income: 60% > 5%, fails.',
    );
  });

  it('when total assets are not reported, then FTSE cannot decide and AAOIFI can: the missing figure decides', () => {
    const out = explained({ fundamentals: { totalAssets: null } });
    const p = pair(out.disagreements, 'shariah_aaoifi', 'shariah_ftse');
    expect(p.statuses).toEqual(['compliant', 'insufficient_data']);
    expect(p.checks.length).toBeGreaterThan(0);
    for (const check of p.checks) expect(check.differences[0]).toBe('missing_figure');
    expect(p.checks.map((c) => c.topic)).toContain('debt');
    const debt = p.checks.find((c) => c.topic === 'debt')!;
    expect(debt.sides[1].check).toMatchObject({ result: 'insufficient_data', value: null });
    expect(debt.sides[1].words).toMatch(/^FTSE cannot be decided on debt: /);
  });

  it('when every methodology passes but AAOIFI’s debt is within a point of its limit, then the agreement is listed as hanging on it', () => {
    const out = explained({ fundamentals: { totalDebt: 2950 } });
    expect(out.disagreements.filter((p) => p.frameworks[0].startsWith('shariah_'))).toEqual([]);
    const p = pair(out.near_limit_agreements, 'shariah_aaoifi', 'shariah_djim');
    expect(p.agree).toBe(true);
    expect(p.checks.map((c) => [c.topic, c.differences])).toEqual([['debt', ['near_limit']]]);
    expect(p.checks[0]!.sides[0].check).toMatchObject({ near_limit: true, value: 0.295 });
    expect(p.summary).toBe('AAOIFI compliant, DJIM compliant: both, with debt (near_limit) near the limit');
  });

  it('when a snapshot kept only the deciding checks, then the passing side is recomputed from its stored ratio and says so', () => {
    const full = screenCompany(inputWith({ fundamentals: { totalDebt: 3120 }, marketCap: { avg24m: 10800, avg36m: 10800 } }));
    const compact = compactResult(full);
    const out = explainDisagreements({ frameworks: compact.frameworks, ratios: compact.ratios, reasonsKept: 'deciding' });
    const check = pair(out.disagreements, 'shariah_aaoifi', 'shariah_sp').checks[0]!;
    expect(check.sides[1].check).toMatchObject({ stored: false, result: 'pass', threshold: 0.33, window: '36m' });
    expect(check.sides[1].words).toMatch(/28\.9% < 33%, passes \(recomputed: the snapshot keeps only deciding checks\)$/);
  });

  it('when two faith frameworks disagree, then their pair is explained too', () => {
    const out = explained({ exposures: [{ activity: 'alcohol', revenueShare: 0.2, asOf: '2025-05-01', sourceRef: 'acc-base-10q' }] });
    const p = pair(out.disagreements, 'christian_bri', 'catholic_usccb');
    expect(p.statuses).toEqual(['non_compliant', 'compliant']);
    expect(p.checks.map((c) => [c.topic, c.differences, c.explanation])).toEqual([
      [
        'business.alcohol',
        ['business_rule', 'rule_absent'],
        'BRI limits alcohol revenue to below 5%: 20% > 5%, fails; USCCB does not screen out alcohol.',
      ],
    ]);
    expect(out.disagreements.every((d) => d.statuses[0] !== d.statuses[1] && d.checks.length > 0)).toBe(true);
  });
});
