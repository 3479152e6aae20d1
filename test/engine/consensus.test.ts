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
  it('when most decisive methodologies reject, then it is non_compliant and the reason says so', () => {
    const most = computeConsensus(results(['non_compliant', 'non_compliant', 'insufficient_data', 'insufficient_data', 'compliant']));
    expect(most).toMatchObject({ status: 'non_compliant', score: 33.3 });
    expect(most.reasons[0]!.message).toContain('most decisive methodologies reject');
  });

  it('when half reject and the score is below 50, then it is non_compliant', () => {
    // 2 of 4 decisive reject, not most; the score (0 + 0 + 0.5 + 1) / 4 = 37.5 is below 50.
    const c = computeConsensus(results(['non_compliant', 'non_compliant', 'questionable', 'insufficient_data', 'compliant']));
    expect(c).toMatchObject({ status: 'non_compliant', score: 37.5 });
    expect(c.reasons[0]!.message).toContain('below 50');
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
