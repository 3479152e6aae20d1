import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { CompactionRequest } from '../activities/maintenance.ts';
import type { CompactionResult } from '../warehouse/compaction.ts';
import { replayCurrentVerdictsSave } from './save-current-verdicts.ts';

const { sweepLakeTempFiles, ensureCatalog, trimWebhookLog } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

const { compactSnapshotFiles } = proxyActivities<Activities>({
  // Rewriting a large lake's partitions takes minutes; the activity heartbeats every few seconds.
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 5 },
});

/** Marks runs that compact: histories recorded before compaction joined the workflow replay without it. */
export const COMPACTION_PATCH = 'lake-maintenance-compacts-snapshots';

/** Marks runs that saved the lake's copy of the current verdicts after compaction (those recorded before replay without it). */
export const CURRENT_VERDICTS_PATCH = 'lake-maintenance-saves-current-verdicts';

/** Marks runs that no longer save the lake's copy of the current verdicts (nothing reads it). */
export const CURRENT_VERDICTS_SKIPPED_PATCH = 'lake-maintenance-skips-current-verdicts';

/** Marks runs that trim the webhook delivery log (recorded histories replay without it). */
export const WEBHOOK_LOG_PATCH = 'lake-maintenance-trims-webhook-log';

export type LakeMaintenanceInput = CompactionRequest;

export interface LakeMaintenanceResult {
  tempFilesRemoved: number;
  /** What compaction merged; null only when replaying a run recorded before compaction was part of it. */
  compaction: CompactionResult | null;
  catalogVersion: number;
  migrationsApplied: string[];
  /** Webhook events and attempts older than the retention removed; null when replaying a run recorded before. */
  webhookLog: { events: number; attempts: number } | null;
}

/**
 * Sweeps orphaned temp files from the lake, merges small snapshot files per (market, year)
 * partition, brings the catalog up to date, and trims the webhook delivery log (docs/webhooks.md).
 * Started daily by its Schedule (docs/pipelines.md); safe to run at any time and to retry.
 */
export async function lakeMaintenance(input: LakeMaintenanceInput = {}): Promise<LakeMaintenanceResult> {
  const tempFilesRemoved = await sweepLakeTempFiles();
  const compaction = patched(COMPACTION_PATCH) ? await compactSnapshotFiles(input) : null;
  // A run recorded with the save holds its marker and not the skip's, so it replays the save; every new run records the skip.
  if (!patched(CURRENT_VERDICTS_SKIPPED_PATCH) && patched(CURRENT_VERDICTS_PATCH)) await replayCurrentVerdictsSave();
  const catalog = await ensureCatalog();
  const webhookLog = patched(WEBHOOK_LOG_PATCH) ? await trimWebhookLog() : null;
  return {
    tempFilesRemoved,
    compaction,
    catalogVersion: catalog.toVersion,
    migrationsApplied: catalog.applied,
    webhookLog,
  };
}
