/**
 * How the API re-screens a ticker: an injected interface, so the use-cases never see Temporal.
 * The real implementation (api/temporal-refresher.ts) starts the `refreshTicker` workflow.
 */

import type { RefreshedScreen } from '../warehouse/snapshot-schema.ts';

/** What happened to a background refresh request. */
export type BackgroundRefresh = 'started' | 'already_running' | 'unavailable';

export interface Refresher {
  /** Re-screens now and waits for the result. Throws RefreshUnavailableError or TickerNotListedError. */
  refresh(market: string, ticker: string): Promise<RefreshedScreen>;
  /** Starts a deduplicated refresh without waiting for it. Never throws. */
  refreshInBackground(market: string, ticker: string): Promise<BackgroundRefresh>;
}

/** The refresh could not run or finish in time (Temporal unreachable, no worker, timeout). */
export class RefreshUnavailableError extends Error {
  constructor(
    message: string,
    /** True when the re-screen did start and goes on in the background (the wait ran out). */
    readonly started = false,
  ) {
    super(message);
    this.name = 'RefreshUnavailableError';
  }
}

/** The pipeline found no listing for the ticker. */
export class TickerNotListedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TickerNotListedError';
  }
}

/** A refresher for deployments without Temporal: every refresh is unavailable, cached data is still served. */
export const unavailableRefresher: Refresher = {
  refresh: (market, ticker) =>
    Promise.reject(new RefreshUnavailableError(`re-screening ${market}/${ticker} is not configured on this server`)),
  refreshInBackground: () => Promise.resolve('unavailable'),
};
