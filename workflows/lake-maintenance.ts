import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { CompactionRequest } from '../activities/maintenance.ts';
import type { LakeCheckpointResult } from '../warehouse/api-reads/api-reads-lake-checkpoint.ts';
import type { CompactionResult } from '../warehouse/compaction.ts';
import { saveCurrentVerdictsIfPossible } from './save-current-verdicts.ts';

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

/** Marks runs that save the lake's copy of the current verdicts after compaction (recorded histories replay without it). */
export const CURRENT_VERDICTS_PATCH = 'lake-maintenance-saves-current-verdicts';

/** Marks runs that trim the webhook delivery log (recorded histories replay without it). */
export const WEBHOOK_LOG_PATCH = 'lake-maintenance-trims-webhook-log';

export type LakeMaintenanceInput = CompactionRequest;

export interface LakeMaintenanceResult {
  tempFilesRemoved: number;
  /** What compaction merged; null only when replaying a run recorded before compaction was part of it. */
  compaction: CompactionResult | null;
  /**
   * The lake's copy of the current verdicts saved after compaction; null when the save failed (logged: a first API start
   * then reads the files) or when replaying a run recorded before it was part of it.
   */
  currentVerdicts: LakeCheckpointResult | null;
  catalogVersion: number;
  migrationsApplied: string[];
  /** Webhook events and attempts older than the retention removed; null when replaying a run recorded before. */
  webhookLog: { events: number; attempts: number } | null;
}

/**
 * Sweeps orphaned temp files from the lake, merges small snapshot files per (market, year)
 * partition, saves the lake's copy of the current verdicts (a first API start begins from it:
 * docs/api.md), brings the catalog up to date, and trims the webhook delivery log (docs/webhooks.md). Started daily by its Schedule
 * (docs/pipelines.md); safe to run at any time and to retry.
 */
export async function lakeMaintenance(input: LakeMaintenanceInput = {}): Promise<LakeMaintenanceResult> {
  const tempFilesRemoved = await sweepLakeTempFiles();
  const compaction = patched(COMPACTION_PATCH) ? await compactSnapshotFiles(input) : null;
  const currentVerdicts = patched(CURRENT_VERDICTS_PATCH) ? await saveCurrentVerdictsIfPossible() : null;
  const catalog = await ensureCatalog();
  const webhookLog = patched(WEBHOOK_LOG_PATCH) ? await trimWebhookLog() : null;
  return {
    tempFilesRemoved,
    compaction,
    currentVerdicts,
    catalogVersion: catalog.toVersion,
    migrationsApplied: catalog.applied,
    webhookLog,
  };
}
