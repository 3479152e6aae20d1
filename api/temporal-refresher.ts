import { WorkflowFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, WorkflowIdConflictPolicy } from '@temporalio/common';
import type { Logger } from 'pino';
import { refreshWorkflowId, type refreshTicker } from '../workflows/index.ts';
import { RefreshUnavailableError, TickerNotListedError, type BackgroundRefresh, type Refresher } from './refresher.ts';
import { type RefreshedScreen } from '../warehouse/snapshot-schema.ts';

export interface TemporalRefresherOptions {
  client: Client;
  taskQueue: string;
  logger?: Logger;
  /** How long a request waits for a re-screen before answering 503 (the workflow keeps running). Default 30 s. */
  waitMs?: number;
  /** How long starting a workflow may take before Temporal counts as unreachable. Default 3 s. */
  startTimeoutMs?: number;
  /** After a failed start, how long refreshes answer `unavailable` at once instead of retrying. Default 10 s. */
  cooldownMs?: number;
}

interface InFlight {
  started: Promise<unknown>;
  /** Set once the workflow is known to run (its start answered). */
  running: boolean;
  result: Promise<RefreshedScreen>;
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RefreshUnavailableError(message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function translateFailure(error: unknown, key: string): Error {
  if (error instanceof WorkflowFailedError && error.cause instanceof ApplicationFailure && error.cause.type === 'TickerNotFound') {
    return new TickerNotListedError(error.cause.message);
  }
  if (error instanceof RefreshUnavailableError || error instanceof TickerNotListedError) return error;
  return new RefreshUnavailableError(`re-screening ${key} failed: ${(error as Error).message}`);
}

/**
 * Re-screens through the `refreshTicker` workflow. One workflow id per ticker with
 * USE_EXISTING makes concurrent refreshes of a ticker share one run across API processes;
 * within a process they also share one promise. When Temporal is unreachable, refreshes
 * answer quickly with `unavailable` during a short cool-down instead of waiting each time.
 */
export function createTemporalRefresher(options: TemporalRefresherOptions): Refresher {
  const inflight = new Map<string, InFlight>();
  let downUntil = 0;

  async function start(market: string, ticker: string): Promise<WorkflowHandle<typeof refreshTicker>> {
    if (Date.now() < downUntil)
      throw new RefreshUnavailableError('the workflow service (Temporal) was unreachable moments ago; retry shortly');
    try {
      return await withTimeout(
        options.client.workflow.start<typeof refreshTicker>('refreshTicker', {
          taskQueue: options.taskQueue,
          workflowId: refreshWorkflowId(market, ticker),
          args: [{ market, ticker }],
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        }),
        options.startTimeoutMs ?? 3_000,
        'the workflow service (Temporal) did not answer in time',
      );
    } catch (error) {
      downUntil = Date.now() + (options.cooldownMs ?? 10_000);
      options.logger?.warn({ err: error, market, ticker }, 'refresh could not start');
      throw error instanceof RefreshUnavailableError
        ? error
        : new RefreshUnavailableError(`the workflow service (Temporal) is unreachable: ${(error as Error).message}`);
    }
  }

  function run(market: string, ticker: string): InFlight {
    const key = `${market}/${ticker}`;
    let pending = inflight.get(key);
    if (!pending) {
      const started = start(market, ticker);
      const result = started
        .then((handle) => handle.result())
        .catch((error: unknown) => {
          throw translateFailure(error, key);
        })
        .finally(() => inflight.delete(key));
      const entry: InFlight = { started, running: false, result };
      started.then(
        () => (entry.running = true),
        () => undefined,
      );
      pending = entry;
      inflight.set(key, pending);
    }
    return pending;
  }

  return {
    refresh(market, ticker) {
      const waitMs = options.waitMs ?? 30_000;
      const message = `re-screening ${market}/${ticker} did not finish within ${Math.round(waitMs / 1000)} s; it continues in the background, retry shortly`;
      const pending = run(market, ticker);
      return withTimeout(pending.result, waitMs, message).catch((error: unknown) => {
        // Out of time while the workflow runs: the work was done for this request, say so.
        if (error instanceof RefreshUnavailableError && error.message === message && pending.running)
          throw new RefreshUnavailableError(message, true);
        throw error;
      });
    },
    async refreshInBackground(market, ticker): Promise<BackgroundRefresh> {
      if (inflight.has(`${market}/${ticker}`)) return 'already_running';
      const pending = run(market, ticker);
      pending.result.catch((error: unknown) => options.logger?.warn({ err: error, market, ticker }, 'background refresh failed'));
      try {
        await pending.started; // bounded by the start timeout; the screen itself is not awaited
        return 'started';
      } catch {
        return 'unavailable';
      }
    },
  };
}
