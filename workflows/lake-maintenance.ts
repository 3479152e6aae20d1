import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';

const { sweepLakeTempFiles, ensureCatalog } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

export interface LakeMaintenanceResult {
  tempFilesRemoved: number;
  catalogVersion: number;
  migrationsApplied: string[];
}

/** Sweeps orphaned temp files from the lake and brings the catalog up to date. */
export async function lakeMaintenance(): Promise<LakeMaintenanceResult> {
  const tempFilesRemoved = await sweepLakeTempFiles();
  const catalog = await ensureCatalog();
  return { tempFilesRemoved, catalogVersion: catalog.toVersion, migrationsApplied: catalog.applied };
}
