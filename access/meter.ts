import type { AccessStore, KeyRecord } from './access-store.ts';
import { currentWindow, decide, reportWindow, type WindowReport, type WindowRule, type WindowState } from './quota-windows.ts';
import { DAY_MS, MONTH_MS, TIER_DAILY_LIMITS, type Tier } from './tiers.ts';

/** The windows that meter a key: daily always (tier default or the key's own limit), monthly when set. */
export function windowRules(key: KeyRecord, tier: Tier): WindowRule[] {
  const daily = key.dailyLimit ?? (tier === 'free' || tier === 'partner' ? 0 : TIER_DAILY_LIMITS[tier]);
  const rules: WindowRule[] = [{ window: 'daily', limit: daily, lengthMs: DAY_MS }];
  if (key.monthlyQuota !== null) rules.push({ window: 'monthly', limit: key.monthlyQuota, lengthMs: MONTH_MS });
  return rules;
}

/** Units taken from each window by one request, so they can be given back exactly. */
export interface Charge {
  keyId: string;
  units: number;
  taken: Array<{ rule: WindowRule; state: WindowState }>;
}

export type ChargeOutcome = { ok: true; charge: Charge } | { ok: false; windows: WindowReport[] };

/**
 * Takes `units` from every window of the key in one IMMEDIATE transaction: concurrent
 * requests, in this process or another, are serialised by SQLite's write lock, so a key with
 * 10 units left lets exactly 10 one-unit requests through. Committed before the handler runs.
 */
export function charge(store: AccessStore, key: KeyRecord, tier: Tier, units: number, now: number): ChargeOutcome {
  const rules = windowRules(key, tier);
  return store.atomically(() => {
    const decision = decide(
      rules.map((rule) => ({ rule, state: store.window(key.keyId, rule.window) })),
      units,
      now,
    );
    if (!decision.allowed) return { ok: false, windows: decision.windows };
    for (const { rule, state } of decision.next) store.putWindow(key.keyId, rule.window, state);
    return { ok: true, charge: { keyId: key.keyId, units, taken: decision.next } };
  });
}

/** Gives back `units` of a charge (a refused request costs nothing; a batch pays only for what it served). */
export function refund(store: AccessStore, charged: Charge, units: number): void {
  const giveBack = Math.min(units, charged.units);
  if (giveBack <= 0) return;
  store.atomically(() => {
    for (const { rule, state } of charged.taken) store.refund(charged.keyId, rule.window, state.startedAtMs, giveBack);
  });
}

/** Current usage of a key's windows, for `keys list` and operators (`exhausted`: a one-unit request would be refused). */
export function usageOf(store: AccessStore, key: KeyRecord, tier: Tier, now: number): WindowReport[] {
  return windowRules(key, tier).map((rule) => reportWindow(currentWindow(store.window(key.keyId, rule.window), rule, now), rule, 1));
}
