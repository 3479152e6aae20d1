import { describe, expect, it } from 'vitest';
import { decidingReasons, statusChanges, type Reason } from '../../engine/index.ts';

const reason = (code: string, result: Reason['result']): Reason => ({ code, result, message: code });

describe('statusChanges', () => {
  it('when a framework differs between two screens, then it is listed with both statuses, in framework order', () => {
    expect(
      statusChanges(
        { shariah_msci: 'compliant', shariah_aaoifi: 'compliant', christian_bri: 'compliant' },
        { shariah_msci: 'questionable', shariah_aaoifi: 'non_compliant', christian_bri: 'compliant' },
      ),
    ).toEqual([
      { framework: 'shariah_aaoifi', from: 'compliant', to: 'non_compliant' },
      { framework: 'shariah_msci', from: 'compliant', to: 'questionable' },
    ]);
  });

  it('when a framework is missing from either screen, then no change is claimed for it', () => {
    expect(statusChanges({ shariah_sp: 'compliant' }, { shariah_djim: 'non_compliant' })).toEqual([]);
  });

  it('when only some frameworks are asked for, then changes of the others are left out', () => {
    const before = { shariah_sp: 'compliant', lds_mormon: 'compliant' } as const;
    const after = { shariah_sp: 'insufficient_data', lds_mormon: 'non_compliant' } as const;
    expect(statusChanges(before, after, ['lds_mormon'])).toEqual([{ framework: 'lds_mormon', from: 'compliant', to: 'non_compliant' }]);
  });
});

describe('decidingReasons', () => {
  const reasons = [reason('a.debt', 'fail'), reason('a.cash', 'pass'), reason('a.income', 'questionable'), reason('a.note', 'info')];

  it('when non_compliant, then the failing checks decided it', () => {
    expect(decidingReasons('non_compliant', reasons).map((r) => r.code)).toEqual(['a.debt']);
  });

  it('when questionable or insufficient_data, then the checks with that result decided it', () => {
    expect(decidingReasons('questionable', reasons).map((r) => r.code)).toEqual(['a.income']);
    expect(decidingReasons('insufficient_data', [...reasons, reason('a.receivables', 'insufficient_data')]).map((r) => r.code)).toEqual([
      'a.receivables',
    ]);
  });

  it('when compliant, then no single check decided it', () => {
    expect(decidingReasons('compliant', reasons)).toEqual([]);
  });
});
