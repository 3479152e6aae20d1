import { AppError, forbidden } from '../common/app-error.ts';
import { quotaExhausted } from './access-control.ts';
import type { AccessStore, KeyRecord } from './access-store.ts';
import type { QuotaMeter } from './meter.ts';
import { accountPagesUsageId } from './usage-history.ts';

/** What a piece of page work answered, and the units that answer is worth (at most what was charged). */
export interface PageWork<T> {
  value: T;
  units: number;
}

/**
 * The stand-in key an account's pages spend with: no key is involved, so the charge goes through
 * the same meter as a self-serve key's (the account's shared windows, one locked transaction)
 * under the usage id `account-pages:<account>`, which the account page shows beside its keys.
 * It is never stored as a key, so it cannot authenticate anything.
 */
function pagesKeyOf(account: string): KeyRecord {
  return {
    keyId: accountPagesUsageId(account),
    account,
    secretHash: '',
    dailyLimit: null,
    monthlyQuota: null,
    costWeights: null,
    createdAt: new Date(0).toISOString(),
    revokedAt: null,
    allowedMarkets: null,
    allowedEndpoints: null,
    allowedFrameworks: null,
  };
}

/**
 * Work an account's own pages do on its allowance (docs/access.md, "Account pages"): charged
 * to the account's daily window before it starts, exactly as the API charges a self-serve key,
 * given back in full when it fails and in part when its answer is worth less than was charged.
 * One piece of work per account at a time in this process, like the sign-in's one check per
 * address: a second arriving meanwhile is a 429 at once, so a user cannot queue hundreds.
 */
export class AccountPageSpending {
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly store: AccessStore,
    private readonly meter: QuotaMeter,
    private readonly now: () => number = Date.now,
    /** Where the 429's detail sends the user for more units. */
    private readonly upgradeUrl = '/account/upgrade',
  ) {}

  /** Runs `work` with `units` charged to `account`'s allowance; 403 for tiers without one, 429 when it is spent or busy. */
  async spend<T>(accountName: string, units: number, what: string, work: () => Promise<PageWork<T>>): Promise<T> {
    if (this.inFlight.has(accountName))
      throw new AppError(
        429,
        'page_work_in_flight',
        `a ${what} of this account is already running; wait for it to finish, then send again`,
        1,
      );
    this.inFlight.add(accountName);
    try {
      const account = await this.store.account(accountName);
      if (!account) throw new Error(`the session's account '${accountName}' does not exist`);
      if (account.lapsedAt !== null)
        throw forbidden(
          `the subscription of account '${account.name}' lapsed on ${account.lapsedAt.slice(0, 10)}; renew it to screen here again`,
          'tier_lapsed',
        );
      // Free accounts have no allowance; a partner's belongs to each key, on its contract's terms.
      if (account.tier === 'free' || account.tier === 'partner')
        throw forbidden(
          account.tier === 'free'
            ? 'the free tier has no units to spend: a portfolio screen here spends the daily allowance that starts at Pro'
            : "partner accounts' allowances belong to their keys: screen the portfolio with POST /api/portfolio and one of them",
          'tier_without_allowance',
        );
      if (units <= 0) return (await work()).value;
      const outcome = await this.meter.charge(pagesKeyOf(account.name), account.tier, units, this.now());
      if (!outcome.ok) throw quotaExhausted(units, "the account's", outcome.windows, this.upgradeUrl);
      let answered: PageWork<T>;
      try {
        answered = await work();
      } catch (error) {
        await this.meter.refund(outcome.charge, units);
        throw error;
      }
      if (answered.units < units) await this.meter.refund(outcome.charge, units - answered.units);
      return answered.value;
    } finally {
      this.inFlight.delete(accountName);
    }
  }
}
