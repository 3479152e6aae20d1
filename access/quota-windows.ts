/**
 * Quota windows, pure. A window opens at the first metered call made while no window is open
 * and closes `lengthMs` later (docs/access.md: "the counter resets 24 hours after the first call");
 * the next call after that opens a new one. This is exact, needs one row per key and window,
 * and gives every 429 a definite `resets_at`.
 */
export type WindowName = 'daily' | 'monthly';

export interface WindowState {
  startedAtMs: number;
  used: number;
}

export interface WindowRule {
  window: WindowName;
  limit: number;
  lengthMs: number;
}

/** The state a window is in at `nowMs`: a closed one counts as a fresh, empty window opening now. */
export function currentWindow(state: WindowState | undefined, rule: WindowRule, nowMs: number): WindowState {
  if (state === undefined || nowMs >= state.startedAtMs + rule.lengthMs) return { startedAtMs: nowMs, used: 0 };
  return state;
}

export interface WindowReport {
  window: WindowName;
  limit: number;
  used: number;
  remaining: number;
  resets_at: string;
  exhausted: boolean;
}

/** What a 429 (and `keys list`) shows for one window. */
export function reportWindow(state: WindowState, rule: WindowRule, cost: number): WindowReport {
  return {
    window: rule.window,
    limit: rule.limit,
    used: state.used,
    remaining: Math.max(0, rule.limit - state.used),
    resets_at: new Date(state.startedAtMs + rule.lengthMs).toISOString(),
    exhausted: state.used + cost > rule.limit,
  };
}

export type MeterDecision =
  { allowed: true; next: Array<{ rule: WindowRule; state: WindowState }> } | { allowed: false; windows: WindowReport[] };

/**
 * Whether `cost` units fit every window; all or nothing, so a refused request changes no
 * window. A request whose cost alone exceeds a limit is refused too.
 */
export function decide(windows: Array<{ rule: WindowRule; state: WindowState | undefined }>, cost: number, nowMs: number): MeterDecision {
  const current = windows.map(({ rule, state }) => ({ rule, state: currentWindow(state, rule, nowMs) }));
  const fits = current.every(({ rule, state }) => state.used + cost <= rule.limit);
  if (!fits) return { allowed: false, windows: current.map(({ rule, state }) => reportWindow(state, rule, cost)) };
  return {
    allowed: true,
    next: current.map(({ rule, state }) => ({ rule, state: { startedAtMs: state.startedAtMs, used: state.used + cost } })),
  };
}
