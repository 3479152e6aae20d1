import { accountMeterId, type AccessStore, type KeyRecord, type MeterId, type QuotaTransaction } from './access-store.ts';
import {
  currentWindow,
  decide,
  reportWindow,
  type WindowName,
  type WindowReport,
  type WindowRule,
  type WindowState,
} from './quota-windows.ts';
import { DAY_MS, MONTH_MS, TIER_DAILY_LIMITS, type Tier } from './tiers.ts';
import { UsageHistory, UsageTally } from './usage-history.ts';

/**
 * Whose allowance a key spends: a self-serve key (pro, team, enterprise) with the tier's terms
 * spends its account's, shared by all the account's keys, so revoking a key and creating
 * another never resets it; a partner key, or any key an operator gave its own daily limit,
 * spends its own.
 */
export function meterIdOf(key: KeyRecord, tier: Tier): MeterId {
  const selfServe = tier === 'pro' || tier === 'team' || tier === 'enterprise';
  return selfServe && key.dailyLimit === null && key.monthlyQuota === null ? accountMeterId(key.account) : key.keyId;
}

/** The windows that meter a key: daily always (tier default or the key's own limit), monthly when set. */
export function windowRules(key: KeyRecord, tier: Tier): WindowRule[] {
  const daily = key.dailyLimit ?? (tier === 'free' || tier === 'partner' ? 0 : TIER_DAILY_LIMITS[tier]);
  const rules: WindowRule[] = [{ window: 'daily', limit: daily, lengthMs: DAY_MS }];
  if (key.monthlyQuota !== null) rules.push({ window: 'monthly', limit: key.monthlyQuota, lengthMs: MONTH_MS });
  return rules;
}

/** Units this process has already charged to a meter's windows in the service state but not yet spent. */
interface Allowance {
  meter: MeterId;
  units: number;
  windows: Array<{ window: WindowName; startedAtMs: number; endsAtMs: number }>;
}

/** A charge waiting for its key's next store trip. */
interface Waiting {
  key: KeyRecord;
  tier: Tier;
  units: number;
  now: number;
  resolve(outcome: ChargeOutcome): void;
  reject(error: unknown): void;
}

/** What one request took, so an error answer can give it back exactly. */
export interface Charge {
  /** The key that spent it (its usage history), whatever meter it was taken from. */
  keyId: string;
  units: number;
  allowance: Allowance;
  /** When the request was charged: a refund goes back to that day's usage history. */
  atMs: number;
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
  for (const w of allowance.windows) await quota.refund(allowance.meter, w.window, w.startedAtMs, units);
}

/**
 * The quota meter of one API process. Every unit is charged in the service state before it is
 * spent: a request that finds too little prepaid allowance runs one transaction that locks the
 * key's quota (QuotaTransaction.lockKey), checks every window, and charges the request and a
 * small block of spare units (`allowanceBlock`) that the next requests spend from memory.
 * Requests of this process for one key that arrive while that transaction runs wait for the
 * next one, which decides all of them at once, in arrival order; those of other processes (and
 * the CLI) wait at the key's lock, so no window ever goes over its limit: a key with 10
 * units left lets exactly 10 one-unit requests through, over any number of API processes.
 * Spare units go back every second and at `close()`.
 *
 * Alongside, the meter keeps each key's usage history (units spent per UTC day and the last
 * use, for the account page): tallied in memory as requests are charged and refunded, written
 * with the spare units each second and at `close()`. A crash loses at most that second of
 * history; it never touches the windows, so limits stay exact.
 *
 * A crash can only over-count: the spare units a process held (at most 50 per key, a tenth of
 * what was left) stay charged until the window ends. Nothing spent is ever uncounted.
 */
export class QuotaMeter {
  private readonly allowances = new Map<string, Allowance>();
  /** Charges of each key waiting for the next store trip: one trip decides all of them, in arrival order. */
  private readonly waiting = new Map<string, Waiting[]>();
  /** Keys whose store trips are under way. */
  private readonly draining = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private returning: Promise<unknown> = Promise.resolve();
  private readonly tally = new UsageTally();
  private readonly history: UsageHistory;

  constructor(
    private readonly store: AccessStore,
    returnEveryMs = 1_000,
  ) {
    this.history = new UsageHistory(store.db);
    this.timer = setInterval(() => void this.returnSpare().catch(() => {}), returnEveryMs);
    this.timer.unref();
  }

  /** Takes `units` for a request on `key`, or says which windows refuse it. */
  async charge(key: KeyRecord, tier: Tier, units: number, now: number): Promise<ChargeOutcome> {
    const meter = meterIdOf(key, tier);
    const outcome =
      this.spend(meter, key.keyId, units, now) ??
      (await new Promise<ChargeOutcome>((resolve, reject) => {
        const waiting = this.waiting.get(meter) ?? [];
        waiting.push({ key, tier, units, now, resolve, reject });
        this.waiting.set(meter, waiting);
        if (!this.draining.has(meter)) void this.drain(meter);
      }));
    if (outcome.ok) this.tally.add(key.keyId, now, units, true);
    return outcome;
  }

  /** Gives back `units` of a charge: a refused request costs nothing, a batch pays only for what it served. */
  async refund(charged: Charge, units: number): Promise<void> {
    const giveBack = Math.min(units, charged.units);
    if (giveBack <= 0) return;
    this.tally.add(charged.keyId, charged.atMs, -giveBack, false);
    if (this.allowances.get(charged.allowance.meter) === charged.allowance) {
      charged.allowance.units += giveBack;
      return;
    }
    await this.store.atomically(async (quota) => {
      await quota.lockMeter(charged.allowance.meter);
      await release(quota, charged.allowance, giveBack);
    });
  }

  /** Returns every spare unit to the service state and writes the usage history (each second, and at close). */
  async returnSpare(): Promise<void> {
    // In meter order: two processes returning together take the meters' locks in the same order, so neither waits on the other forever.
    const held = [...this.allowances.values()]
      .filter((a) => a.units > 0)
      .sort((a, b) => (a.meter < b.meter ? -1 : 1))
      .map((allowance) => ({ allowance, units: takeSpare(allowance) }));
    this.allowances.clear();
    // Returns run one after another, so when this resolves every earlier return is committed too.
    const usage = this.tally.take();
    const work = this.returning.then(async () => {
      try {
        if (held.length === 0) return;
        await this.store.atomically(async (quota) => {
          for (const { allowance, units } of held) {
            await quota.lockMeter(allowance.meter);
            await release(quota, allowance, units);
          }
        });
      } finally {
        await this.writeUsage(usage);
      }
    });
    this.returning = work.catch(() => undefined);
    await work;
  }

  private async writeUsage(usage: ReturnType<UsageTally['take']>): Promise<void> {
    try {
      await this.history.addAndTrim(usage);
    } catch (error) {
      this.tally.restore(usage); // written with the next return
      throw error;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.returnSpare();
  }

  private spend(meter: MeterId, keyId: string, units: number, now: number): ChargeOutcome | undefined {
    const held = this.allowances.get(meter);
    if (!held || held.units < units || !held.windows.every((w) => now < w.endsAtMs)) return undefined;
    held.units -= units;
    return { ok: true, charge: { keyId, units, allowance: held, atMs: now } };
  }

  /** Store trips for one meter until nothing waits: each takes every charge that arrived meanwhile. */
  private async drain(meter: MeterId): Promise<void> {
    this.draining.add(meter);
    try {
      for (let batch = this.takeWaiting(meter); batch.length > 0; batch = this.takeWaiting(meter)) {
        // What the previous trip's new allowance covers is served from memory.
        const stored = batch.filter((w) => {
          const fromMemory = this.spend(meter, w.key.keyId, w.units, w.now);
          if (fromMemory) w.resolve(fromMemory);
          return !fromMemory;
        });
        if (stored.length === 0) continue;
        try {
          const outcomes = await this.chargeStored(stored);
          stored.forEach((w, i) => w.resolve(outcomes[i]!));
        } catch (error) {
          for (const w of stored) w.reject(error);
        }
      }
    } finally {
      this.draining.delete(meter);
    }
  }

  private takeWaiting(meter: MeterId): Waiting[] {
    const batch = this.waiting.get(meter) ?? [];
    this.waiting.delete(meter);
    return batch;
  }

  /**
   * One locked transaction for a batch of one meter's charges: each is decided in turn against
   * the windows as the ones before it left them (all or nothing per charge), then the windows
   * are written once, with one spare block on top.
   */
  private chargeStored(batch: readonly Waiting[]): Promise<ChargeOutcome[]> {
    const { key, tier } = batch[0]!;
    const meter = meterIdOf(key, tier);
    const rules = windowRules(key, tier);
    const held = this.allowances.get(meter);
    const stale = held ? { allowance: held, units: takeSpare(held) } : undefined; // too small or expired: given back first
    return this.store.atomically(async (quota) => {
      await quota.lockMeter(meter);
      if (stale) await release(quota, stale.allowance, stale.units);
      let windows: Array<{ rule: WindowRule; state: WindowState | undefined }> = [];
      for (const rule of rules) windows.push({ rule, state: await quota.window(meter, rule.window) });
      const decided: Array<ChargeOutcome | 'allowed'> = batch.map((w) => {
        const decision = decide(windows, w.units, w.now);
        if (!decision.allowed) return { ok: false, windows: decision.windows };
        windows = decision.next;
        return 'allowed';
      });
      if (!decided.includes('allowed')) return decided as ChargeOutcome[];
      const next = windows as Array<{ rule: WindowRule; state: WindowState }>;
      const block = allowanceBlock(Math.min(...next.map(({ rule, state }) => rule.limit - state.used)));
      for (const { rule, state } of next)
        await quota.putWindow(meter, rule.window, { startedAtMs: state.startedAtMs, used: state.used + block });
      const allowance: Allowance = {
        meter,
        units: block,
        windows: next.map(({ rule, state }) => ({
          window: rule.window,
          startedAtMs: state.startedAtMs,
          endsAtMs: state.startedAtMs + rule.lengthMs,
        })),
      };
      this.allowances.set(meter, allowance);
      return decided.map((outcome, i) =>
        outcome === 'allowed'
          ? { ok: true as const, charge: { keyId: batch[i]!.key.keyId, units: batch[i]!.units, allowance, atMs: batch[i]!.now } }
          : outcome,
      );
    });
  }
}

/**
 * Current usage of the windows a key spends from (its account's, for self-serve keys), for
 * `keys list` and the account page (`exhausted`: a one-unit request would be refused).
 */
export async function usageOf(store: AccessStore, key: KeyRecord, tier: Tier, now: number): Promise<WindowReport[]> {
  const reports = [];
  for (const rule of windowRules(key, tier))
    reports.push(reportWindow(currentWindow(await store.window(meterIdOf(key, tier), rule.window), rule, now), rule, 1));
  return reports;
}
