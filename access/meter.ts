import type { AccessStore, KeyRecord } from './access-store.ts';
import { currentWindow, decide, reportWindow, type WindowName, type WindowReport, type WindowRule } from './quota-windows.ts';
import { DAY_MS, MONTH_MS, TIER_DAILY_LIMITS, type Tier } from './tiers.ts';

/** The windows that meter a key: daily always (tier default or the key's own limit), monthly when set. */
export function windowRules(key: KeyRecord, tier: Tier): WindowRule[] {
  const daily = key.dailyLimit ?? (tier === 'free' || tier === 'partner' ? 0 : TIER_DAILY_LIMITS[tier]);
  const rules: WindowRule[] = [{ window: 'daily', limit: daily, lengthMs: DAY_MS }];
  if (key.monthlyQuota !== null) rules.push({ window: 'monthly', limit: key.monthlyQuota, lengthMs: MONTH_MS });
  return rules;
}

/** Units this process has already charged to a key's windows in service.db but not yet spent. */
interface Allowance {
  keyId: string;
  units: number;
  windows: Array<{ window: WindowName; startedAtMs: number; endsAtMs: number }>;
}

/** What one request took, so an error answer can give it back exactly. */
export interface Charge {
  units: number;
  allowance: Allowance;
}

export type ChargeOutcome = { ok: true; charge: Charge } | { ok: false; windows: WindowReport[] };

/** Spare units taken along with a charge: a tenth of what is left after it, at most 50. */
export function allowanceBlock(spare: number): number {
  return Math.max(0, Math.min(50, Math.floor(spare / 10)));
}

/**
 * The quota meter of one API process. Every unit is charged in service.db before it is spent:
 * a request that finds too little prepaid allowance runs one IMMEDIATE transaction that checks
 * every window, charges the request and a small block of spare units (`allowanceBlock`) that
 * the next requests spend from memory. Concurrent requests in this process are serialised by
 * JavaScript's single thread, those of other processes (and the CLI) by SQLite's write lock,
 * so no window ever goes over its limit: a key with 10 units left lets exactly 10 one-unit
 * requests through. Spare units go back to service.db every second and at `close()`.
 *
 * A crash can only over-count: the spare units a process held (at most 50 per key, a tenth of
 * what was left) stay charged until the window ends. Nothing spent is ever uncounted.
 */
export class QuotaMeter {
  private readonly allowances = new Map<string, Allowance>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: AccessStore,
    returnEveryMs = 1_000,
  ) {
    this.timer = setInterval(() => this.returnSpare(), returnEveryMs);
    this.timer.unref();
  }

  /** Takes `units` for a request on `key`, or says which windows refuse it. */
  charge(key: KeyRecord, tier: Tier, units: number, now: number): ChargeOutcome {
    const held = this.allowances.get(key.keyId);
    if (held && held.units >= units && held.windows.every((w) => now < w.endsAtMs)) {
      held.units -= units;
      return { ok: true, charge: { units, allowance: held } };
    }
    const rules = windowRules(key, tier);
    return this.store.atomically(() => {
      if (held) this.release(held); // stale or too small: give it back before deciding
      const decision = decide(
        rules.map((rule) => ({ rule, state: this.store.window(key.keyId, rule.window) })),
        units,
        now,
      );
      if (!decision.allowed) return { ok: false, windows: decision.windows };
      const block = allowanceBlock(Math.min(...decision.next.map(({ rule, state }) => rule.limit - state.used)));
      for (const { rule, state } of decision.next) this.store.putWindow(key.keyId, rule.window, { startedAtMs: state.startedAtMs, used: state.used + block });
      const allowance: Allowance = {
        keyId: key.keyId,
        units: block,
        windows: decision.next.map(({ rule, state }) => ({ window: rule.window, startedAtMs: state.startedAtMs, endsAtMs: state.startedAtMs + rule.lengthMs })),
      };
      this.allowances.set(key.keyId, allowance);
      return { ok: true, charge: { units, allowance } };
    });
  }

  /** Gives back `units` of a charge: a refused request costs nothing, a batch pays only for what it served. */
  refund(charged: Charge, units: number): void {
    const giveBack = Math.min(units, charged.units);
    if (giveBack <= 0) return;
    if (this.allowances.get(charged.allowance.keyId) === charged.allowance) {
      charged.allowance.units += giveBack;
      return;
    }
    this.store.atomically(() => this.release({ ...charged.allowance, units: giveBack }));
  }

  /** Returns every spare unit to service.db (each second, and at close). */
  returnSpare(): void {
    const held = [...this.allowances.values()].filter((a) => a.units > 0);
    this.allowances.clear();
    if (held.length > 0) this.store.atomically(() => held.forEach((a) => this.release(a)));
  }

  close(): void {
    clearInterval(this.timer);
    this.returnSpare();
  }

  /** Credits an allowance's unspent units back to the windows they were charged to (if those are still open). */
  private release(allowance: Allowance): void {
    if (allowance.units <= 0) return;
    for (const w of allowance.windows) this.store.refund(allowance.keyId, w.window, w.startedAtMs, allowance.units);
    allowance.units = 0;
  }
}

/** Current usage of a key's windows, for `keys list` and operators (`exhausted`: a one-unit request would be refused). */
export function usageOf(store: AccessStore, key: KeyRecord, tier: Tier, now: number): WindowReport[] {
  return windowRules(key, tier).map((rule) => reportWindow(currentWindow(store.window(key.keyId, rule.window), rule, now), rule, 1));
}
