import { describe, expect, it } from 'vitest';
import { currentWindow, decide, reportWindow, type WindowRule } from '../../access/quota-windows.ts';
import { DAY_MS, MONTH_MS } from '../../access/tiers.ts';

const daily: WindowRule = { window: 'daily', limit: 10, lengthMs: DAY_MS };
const monthly: WindowRule = { window: 'monthly', limit: 25, lengthMs: MONTH_MS };
const T0 = Date.parse('2026-11-21T09:30:00Z');

describe('quota windows', () => {
  it('opens a window at the first call and keeps it for exactly 24 hours', () => {
    expect(currentWindow(undefined, daily, T0)).toEqual({ startedAtMs: T0, used: 0 });
    const open = { startedAtMs: T0, used: 7 };
    expect(currentWindow(open, daily, T0 + DAY_MS - 1)).toBe(open);
    expect(currentWindow(open, daily, T0 + DAY_MS)).toEqual({ startedAtMs: T0 + DAY_MS, used: 0 });
  });

  it('allows a cost that exactly reaches the limit and refuses one unit more', () => {
    const at9 = { startedAtMs: T0, used: 9 };
    expect(decide([{ rule: daily, state: at9 }], 1, T0 + 1)).toEqual({
      allowed: true,
      next: [{ rule: daily, state: { startedAtMs: T0, used: 10 } }],
    });
    const refused = decide([{ rule: daily, state: at9 }], 2, T0 + 1);
    expect(refused.allowed).toBe(false);
  });

  it('is all or nothing across windows: a full monthly window refuses even when the daily one has room', () => {
    const decision = decide(
      [
        { rule: daily, state: { startedAtMs: T0, used: 0 } },
        { rule: monthly, state: { startedAtMs: T0 - 5 * DAY_MS, used: 25 } },
      ],
      1,
      T0,
    );
    expect(decision).toEqual({
      allowed: false,
      windows: [
        { window: 'daily', limit: 10, used: 0, remaining: 10, resets_at: '2026-11-22T09:30:00.000Z', exhausted: false },
        { window: 'monthly', limit: 25, used: 25, remaining: 0, resets_at: '2026-12-16T09:30:00.000Z', exhausted: true },
      ],
    });
  });

  it('refuses a single request that costs more than the whole limit', () => {
    expect(decide([{ rule: daily, state: undefined }], 11, T0).allowed).toBe(false);
  });

  it('reports resets_at as the end of the current window', () => {
    expect(reportWindow({ startedAtMs: T0, used: 3 }, daily, 1)).toMatchObject({
      remaining: 7,
      resets_at: '2026-11-22T09:30:00.000Z',
      exhausted: false,
    });
  });
});
