import type { AccessStore, KeyRecord, QuotaTransaction } from './access-store.ts';
import { currentWindow, decide, reportWindow, type WindowName, type WindowReport, type WindowRule } from './quota-windows.ts';
import { DAY_MS, MONTH_MS, TIER_DAILY_LIMITS, type Tier } from './tiers.ts';

/** The windows that meter a key: daily always (tier default or the key's own limit), monthly when set. */
export function windowRules(key: KeyRecord, tier: Tier): WindowRule[] {
  const daily = key.dailyLimit ?? (tier === 'free' || tier === 'partner' ? 0 : TIER_DAILY_LIMITS[tier]);
  const rules: WindowRule[] = [{ window: 'daily', limit: daily, lengthMs: DAY_MS }];
  if (key.monthlyQuota !== null) rules.push({ window: 'monthly', limit: key.monthlyQuota, lengthMs: MONTH_MS });
  return rules;
}

/** Units this process has already charged to a key's windows in the service state but not yet spent. */
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

/** Zeroes an allowance at once (before any await) and says how many units it held. */
function takeSpare(allowance: Allowance): number {
  const units = allowance.units;
  allowance.units = 0;
  return units;
}

/** Credits units back to the windows they were charged to (if those are still open). */
async function release(quota: QuotaTransaction, allowance: Allowance, units: number): Promise<void> {
  if (units <= 0) return;
  for (const w of allowance.windows) await quota.refund(allowance.keyId, w.window, w.startedAtMs, units);
}

/**
 * The quota meter of one API process. Every unit is charged in the service state before it is
 * spent: a request that finds too little prepaid allowance runs one transaction that locks the
 * key's quota (QuotaTransaction.lockKey), checks every window, and charges the request and a
 * small block of spare units (`allowanceBlock`) that the next requests spend from memory.
 * Requests of this process for one key queue behind that transaction; those of other processes
 * (and the CLI) wait at the key's lock, so no window ever goes over its limit: a key with 10
 * units left lets exactly 10 one-unit requests through, over any number of API processes.
 * Spare units go back every second and at `close()`.
 *
 * A crash can only over-count: the spare units a process held (at most 50 per key, a tenth of
 * what was left) stay charged until the window ends. Nothing spent is ever uncounted.
 */
export class QuotaMeter {
  private readonly allowances = new Map<string, Allowance>();
  /** The last charge of each key that waits for the service state; the next ones queue behind it. */
  private readonly queued = new Map<string, Promise<unknown>>();
  private readonly timer: NodeJS.Timeout;
  private returning: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: AccessStore,
    returnEveryMs = 1_000,
  ) {
    this.timer = setInterval(() => void this.returnSpare().catch(() => {}), returnEveryMs);
    this.timer.unref();
  }

  /** Takes `units` for a request on `key`, or says which windows refuse it. */
  async charge(key: KeyRecord, tier: Tier, units: number, now: number): Promise<ChargeOutcome> {
    const fromMemory = this.spend(key.keyId, units, now);
    if (fromMemory) return fromMemory;
    // Queue behind this key's charges already waiting for the store; the allowance the one
    // before took may cover this one, so memory is asked again first.
    const before = this.queued.get(key.keyId) ?? Promise.resolve();
    const mine = before.then(() => this.spend(key.keyId, units, now) ?? this.chargeStored(key, tier, units, now));
    const settled = mine.catch(() => undefined);
    this.queued.set(key.keyId, settled);
    try {
      return await mine;
    } finally {
      if (this.queued.get(key.keyId) === settled) this.queued.delete(key.keyId);
    }
  }

  /** Gives back `units` of a charge: a refused request costs nothing, a batch pays only for what it served. */
  async refund(charged: Charge, units: number): Promise<void> {
    const giveBack = Math.min(units, charged.units);
    if (giveBack <= 0) return;
    if (this.allowances.get(charged.allowance.keyId) === charged.allowance) {
      charged.allowance.units += giveBack;
      return;
    }
    await this.store.atomically(async (quota) => {
      await quota.lockKey(charged.allowance.keyId);
      await release(quota, charged.allowance, giveBack);
    });
  }

  /** Returns every spare unit to the service state (each second, and at close). */
  async returnSpare(): Promise<void> {
    // In key order: two processes returning together take the keys' locks in the same order, so neither waits on the other forever.
    const held = [...this.allowances.values()]
      .filter((a) => a.units > 0)
      .sort((a, b) => (a.keyId < b.keyId ? -1 : 1))
      .map((allowance) => ({ allowance, units: takeSpare(allowance) }));
    this.allowances.clear();
    // Returns run one after another, so when this resolves every earlier return is committed too.
    const work = this.returning.then(async () => {
      if (held.length === 0) return;
      await this.store.atomically(async (quota) => {
        for (const { allowance, units } of held) {
          await quota.lockKey(allowance.keyId);
          await release(quota, allowance, units);
        }
      });
    });
    this.returning = work.catch(() => undefined);
    await work;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.returnSpare();
  }

  private spend(keyId: string, units: number, now: number): ChargeOutcome | undefined {
    const held = this.allowances.get(keyId);
    if (!held || held.units < units || !held.windows.every((w) => now < w.endsAtMs)) return undefined;
    held.units -= units;
    return { ok: true, charge: { units, allowance: held } };
  }

  private chargeStored(key: KeyRecord, tier: Tier, units: number, now: number): Promise<ChargeOutcome> {
    const rules = windowRules(key, tier);
    const held = this.allowances.get(key.keyId);
    const stale = held ? { allowance: held, units: takeSpare(held) } : undefined; // too small or expired: given back first
    return this.store.atomically(async (quota) => {
      await quota.lockKey(key.keyId);
      if (stale) await release(quota, stale.allowance, stale.units);
      const states = [];
      for (const rule of rules) states.push({ rule, state: await quota.window(key.keyId, rule.window) });
      const decision = decide(states, units, now);
      if (!decision.allowed) return { ok: false, windows: decision.windows };
      const block = allowanceBlock(Math.min(...decision.next.map(({ rule, state }) => rule.limit - state.used)));
      for (const { rule, state } of decision.next) await quota.putWindow(key.keyId, rule.window, { startedAtMs: state.startedAtMs, used: state.used + block });
      const allowance: Allowance = {
        keyId: key.keyId,
        units: block,
        windows: decision.next.map(({ rule, state }) => ({ window: rule.window, startedAtMs: state.startedAtMs, endsAtMs: state.startedAtMs + rule.lengthMs })),
      };
      this.allowances.set(key.keyId, allowance);
      return { ok: true, charge: { units, allowance } };
    });
  }
}

/** Current usage of a key's windows, for `keys list` and operators (`exhausted`: a one-unit request would be refused). */
export async function usageOf(store: AccessStore, key: KeyRecord, tier: Tier, now: number): Promise<WindowReport[]> {
  const reports = [];
  for (const rule of windowRules(key, tier)) reports.push(reportWindow(currentWindow(await store.window(key.keyId, rule.window), rule, now), rule, 1));
  return reports;
}
