import { describe, expect, it } from 'vitest';
import { computeConsensus } from '../../engine/consensus.ts';
import {
  screenCompany,
  SHARIAH_FRAMEWORK_IDS,
  type FrameworkId,
  type FrameworkResult,
  type Reason,
  type VerdictStatus,
} from '../../engine/index.ts';
import { inputWith } from './fixtures.ts';

function result(id: FrameworkId, status: VerdictStatus, reasons: Reason[] = []): FrameworkResult {
  return { id, status, score: null, methodology_version: 'v', methodology_effective_from: '1900-01-01', reasons, purification: null };
}

/** The five Shariah statuses in SHARIAH_FRAMEWORK_IDS order, every tradition compliant. */
function results(
  shariah: VerdictStatus[],
  extra: Partial<Record<FrameworkId, FrameworkResult>> = {},
): Partial<Record<FrameworkId, FrameworkResult>> {
  const out: Partial<Record<FrameworkId, FrameworkResult>> = {};
  SHARIAH_FRAMEWORK_IDS.forEach((id, i) => (out[id] = result(id, shariah[i]!)));
  for (const id of ['christian_bri', 'catholic_usccb', 'jewish_halakhic', 'lds_mormon'] as const) out[id] = result(id, 'compliant');
  return { ...out, ...extra };
}

describe('service_consensus: the Shariah consensus with the other traditions beside it', () => {
  it('when most methodologies reject, then it is non_compliant and the reason says so', () => {
    const most = computeConsensus(results(['non_compliant', 'non_compliant', 'non_compliant', 'compliant', 'compliant']));
    expect(most).toMatchObject({ status: 'non_compliant', score: 40 });
    expect(most.reasons[0]!.message).toContain('most decisive methodologies reject');
  });

  it('when two reject and the score is below 50, then it is non_compliant', () => {
    // 2 of 5 reject, not most; the score (0 + 0 + 0.5 + 0.5 + 1) / 5 = 40 is below 50.
    const c = computeConsensus(results(['non_compliant', 'non_compliant', 'questionable', 'questionable', 'compliant']));
    expect(c).toMatchObject({ status: 'non_compliant', score: 40 });
    expect(c.reasons[0]!.message).toContain('below 50');
  });

  it('when the undecided methodologies would change nothing either way, then the decisive ones decide and the reason says so', () => {
    // Counted non-compliant: 4 of 5 reject; counted compliant: 3 of 5 reject. Non_compliant both ways.
    const rejected = computeConsensus(results(['non_compliant', 'non_compliant', 'non_compliant', 'insufficient_data', 'compliant']));
    expect(rejected).toMatchObject({ status: 'non_compliant', score: 25 });
    expect(rejected.reasons[0]!.message).toContain('shariah_ftse has no decisive verdict and would change nothing either way');
    // Counted non-compliant: score 80 with 1 of 5 rejecting; counted compliant: 100. Compliant both ways.
    const passed = computeConsensus(results(['compliant', 'compliant', 'compliant', 'compliant', 'insufficient_data']));
    expect(passed).toMatchObject({ status: 'compliant', score: 100 });
  });

  it('when the undecided methodologies decide between compliant and questionable, then it is questionable, never compliant', () => {
    const c = computeConsensus(results(['compliant', 'compliant', 'compliant', 'insufficient_data', 'insufficient_data']));
    expect(c).toMatchObject({ status: 'questionable', score: null, coverage: 0.6 });
    expect(c.reasons).toEqual([
      expect.objectContaining({ code: 'service_consensus.undecided', result: 'questionable', value: 60, threshold: 80, operator: '>=' }),
    ]);
    expect(c.reasons[0]!.message).toContain('shariah_ftse, shariah_msci have no decisive verdict');
    expect(c.reasons[0]!.message).toContain('counted non-compliant it would be questionable (score 60)');
    expect(c.reasons[0]!.message).toContain('counted compliant it would be compliant (score 100)');
  });

  it('when the undecided methodologies decide whether it is non_compliant, then it is insufficient_data, not a rejection on missing data', () => {
    // consensus-3 said non_compliant (2 of 3 decisive reject); with the two others compliant only 2 of 5 would reject (score 60).
    const c = computeConsensus(results(['non_compliant', 'non_compliant', 'insufficient_data', 'insufficient_data', 'compliant']));
    expect(c).toMatchObject({ status: 'insufficient_data', score: null });
    expect(c.reasons[0]).toMatchObject({ code: 'service_consensus.undecided', result: 'insufficient_data', value: 20 });
    expect(c.reasons[0]!.message).toContain('whether the consensus rejects the company rests on them');
  });

  it('when any methodology loses its verdict, then the consensus never rises and never becomes non_compliant (every combination)', () => {
    // Each methodology: compliant, questionable, non_compliant on a ratio or on a business activity, or undecided on either.
    const kinds = ['compliant', 'questionable', 'fails ratio', 'fails business', 'lacks ratio', 'lacks business'] as const;
    type Kind = (typeof kinds)[number];
    const of = (id: FrameworkId, kind: Kind): FrameworkResult => {
      const check = (result: 'fail' | 'insufficient_data', what: string): Reason => ({ code: `${id}.${what}`, result, message: what });
      if (kind === 'fails ratio') return result(id, 'non_compliant', [check('fail', 'debt')]);
      if (kind === 'fails business') return result(id, 'non_compliant', [check('fail', 'business.alcohol')]);
      if (kind === 'lacks ratio') return result(id, 'insufficient_data', [check('insufficient_data', 'debt')]);
      if (kind === 'lacks business') return result(id, 'insufficient_data', [check('insufficient_data', 'business.alcohol')]);
      return result(id, kind);
    };
    const consensus = (five: Kind[]) => {
      const byId: Partial<Record<FrameworkId, FrameworkResult>> = results(five.map(() => 'compliant'));
      SHARIAH_FRAMEWORK_IDS.forEach((id, i) => (byId[id] = of(id, five[i]!)));
      return computeConsensus(byId).status;
    };
    const rank: Record<VerdictStatus, number> = { non_compliant: 0, questionable: 1, compliant: 2, insufficient_data: -1 };
    let compared = 0;
    for (let code = 0; code < kinds.length ** 5; code++) {
      const five = [0, 1, 2, 3, 4].map((i) => kinds[Math.floor(code / kinds.length ** i) % kinds.length]!);
      const before = consensus(five);
      for (let lost = 0; lost < 5; lost++) {
        if (five[lost]!.startsWith('lacks')) continue;
        // A failed business check decides until its own evidence goes: then only that is what it lacks.
        const losses = five[lost] === 'fails business' ? (['lacks business'] as const) : (['lacks ratio', 'lacks business'] as const);
        for (const instead of losses) {
          const after = consensus(five.map((k, i) => (i === lost ? instead : k)));
          if (after === 'insufficient_data') continue;
          compared += 1;
          const label = `${five.join(',')}: ${lost} ${instead}: ${before} -> ${after}`;
          expect(before, label).not.toBe('insufficient_data');
          expect(rank[after], label).toBeLessThanOrEqual(rank[before]);
          // Never non_compliant unless it was: a missing verdict decides nothing.
          expect(after === 'non_compliant' && before !== 'non_compliant', label).toBe(false);
        }
      }
    }
    expect(compared).toBeGreaterThan(8_000);
  });

  it('when a methodology that failed on a business activity loses that evidence, then four passing make it questionable, not compliant', () => {
    const lacking: Reason = { code: 'shariah_aaoifi.business.alcohol', result: 'insufficient_data', message: 'no evidence' };
    const c = computeConsensus(
      results(['insufficient_data', 'compliant', 'compliant', 'compliant', 'compliant'], {
        shariah_aaoifi: result('shariah_aaoifi', 'insufficient_data', [lacking]),
      }),
    );
    expect(c).toMatchObject({ status: 'questionable', score: null });
    expect(c.reasons[0]!.message).toContain('counted non-compliant it would be questionable (score 80)');
  });

  it('when one methodology fails a prohibited business activity and the score is 80 or more, then it is questionable, never compliant', () => {
    const failing: Reason = { code: 'shariah_msci.business.weapons', result: 'fail', message: 'weapons maker' };
    const c = computeConsensus(
      results(['compliant', 'compliant', 'compliant', 'compliant', 'non_compliant'], {
        shariah_msci: result('shariah_msci', 'non_compliant', [failing]),
      }),
    );
    expect(c).toMatchObject({ status: 'questionable', score: 80 });
    expect(c.reasons[0]!.message).toContain('shariah_msci finds a prohibited business activity');
  });

  it('when one methodology fails on a ratio only and four pass, then the consensus of 80 is compliant', () => {
    const ratio: Reason = { code: 'shariah_aaoifi.interest_bearing_debt', result: 'fail', message: 'debt' };
    const c = computeConsensus(
      results(['non_compliant', 'compliant', 'compliant', 'compliant', 'compliant'], {
        shariah_aaoifi: result('shariah_aaoifi', 'non_compliant', [ratio]),
      }),
    );
    expect(c).toMatchObject({ status: 'compliant', score: 80 });
  });

  it('when the traditions disagree with the Shariah methodologies, then they are listed beside the consensus and change nothing', () => {
    const rejecting = results(['compliant', 'compliant', 'compliant', 'compliant', 'compliant'], {
      lds_mormon: result('lds_mormon', 'non_compliant'),
      catholic_usccb: result('catholic_usccb', 'insufficient_data'),
    });
    const c = computeConsensus(rejecting);
    expect(c).toMatchObject({ status: 'compliant', score: 100, coverage: 1 });
    expect(c.traditions).toEqual([
      { framework: 'christian_bri', status: 'compliant' },
      { framework: 'catholic_usccb', status: 'insufficient_data' },
      { framework: 'jewish_halakhic', status: 'compliant' },
      { framework: 'lds_mormon', status: 'non_compliant' },
    ]);
    expect(c.components!.map((x) => x.component)).toEqual([...SHARIAH_FRAMEWORK_IDS]);
  });

  it('when fewer than three methodologies are decisive, then it is insufficient_data whatever the traditions say', () => {
    const c = computeConsensus(results(['compliant', 'compliant', 'insufficient_data', 'insufficient_data', 'insufficient_data']));
    expect(c).toMatchObject({ status: 'insufficient_data', score: null, coverage: 0.4 });
    expect(c.reasons[0]).toMatchObject({ code: 'service_consensus.shariah_coverage', value: 2, threshold: 3 });
  });

  it('when a coffee roaster is screened beside its twin without coffee, then LDS rejects it and the Shariah consensus is the same', () => {
    const coffee = { activity: 'coffee', revenueShare: 0.6, asOf: '2025-01-01', sourceRef: 'seg-coffee', involvement: 'producer' };
    const roaster = screenCompany(inputWith({ listing: { domicile: 'US' }, exposures: [coffee] })).frameworks.service_consensus!;
    const twin = screenCompany(inputWith({ listing: { domicile: 'US' } })).frameworks.service_consensus!;
    expect({ status: roaster.status, score: roaster.score }).toEqual({ status: twin.status, score: twin.score });
    expect(roaster.status).toBe('compliant');
    expect(roaster.traditions!.find((t) => t.framework === 'lds_mormon')!.status).toBe('non_compliant');
  });

  it('when a bank is rejected by all five Shariah methodologies, then the consensus is non_compliant, not the middle band', () => {
    const finance = { activity: 'conventional_finance', revenueShare: 0.6, asOf: '2025-01-01', sourceRef: 'seg-finance' };
    const c = screenCompany(inputWith({ listing: { domicile: 'US' }, exposures: [finance] })).frameworks.service_consensus!;
    expect(c).toMatchObject({ status: 'non_compliant', score: 0 });
  });
});
