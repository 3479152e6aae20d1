import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { RefreshedScreen } from '../warehouse/snapshot-schema.ts';
import { utcDay } from '../engine/dates.ts';
import { runIdFrom } from './run-id.ts';
import { startStatusChangeDeliveries } from './after-publish.ts';

const { refreshTickerData, screenTicker } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

export interface RefreshTickerInput {
  market: string;
  ticker: string;
  /** Screening date; defaults to the run's start date (UTC). */
  date?: string;
}

/** Workflow id that deduplicates refreshes: concurrent requests for one ticker share one run. */
export function refreshWorkflowId(market: string, ticker: string): string {
  return `refresh-${market}-${ticker}`;
}

/**
 * Screens one ticker again and publishes a `refresh` snapshot (a same-day re-screen supersedes the
 * earlier one while history keeps both), returning the report. The data step is a hook for sources
 * that can fetch one ticker; those in this build have nothing newer per ticker (docs/pipelines.md).
 */
export async function refreshTicker(input: RefreshTickerInput): Promise<RefreshedScreen> {
  const date = input.date ?? utcDay(workflowInfo().startTime.getTime());
  await refreshTickerData({ market: input.market, ticker: input.ticker, date });
  const runId = runIdFrom(`${workflowInfo().workflowId}-${workflowInfo().runId}`);
  const screened = await screenTicker({ market: input.market, ticker: input.ticker, date, runId });
  await startStatusChangeDeliveries(runId, [input.market]);
  return screened;
}
