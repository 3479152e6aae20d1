import { Context } from '@temporalio/activity';
import { migrateCatalog, type CatalogStatus } from '../warehouse/catalog.ts';
import { compactSnapshots, type CompactionOptions, type CompactionResult } from '../warehouse/compaction.ts';
import { lakeRoot } from '../warehouse/lake-paths.ts';
import { runsRoot } from './failure-log.ts';
import { sweepTempFiles } from '../warehouse/publish.ts';
import { beat } from './heartbeat.ts';

/** Heartbeats and stops early when the workflow cancelled this activity. */
/** How often a running compaction repeats its latest partition as a heartbeat (one big partition can take minutes). */
const HEARTBEAT_RELAY_MS = 5_000;

/** What crosses Temporal for a compaction: thresholds only (defaults in warehouse/compaction.ts). */
export type CompactionRequest = Pick<CompactionOptions, 'minFiles' | 'minAgeMs'>;

export interface MaintenanceDeps {
  dataDir: string;
}

/** Removes temp files that dead writers left in the lake and in the runs' failure lists; returns how many. */
export async function sweepDeadWritersTempFiles(dataDir: string): Promise<number> {
  return (await sweepTempFiles(lakeRoot(dataDir))) + (await sweepTempFiles(runsRoot(dataDir)));
}

/** Housekeeping of the lake and the catalog; safe to run at any time and to retry. */
export function createMaintenanceActivities(deps: MaintenanceDeps) {
  return {
    /** Removes temp files of writers that died between write and rename; returns how many. */
    async sweepLakeTempFiles(): Promise<number> {
      beat('sweeping');
      return sweepDeadWritersTempFiles(deps.dataDir);
    },
    /**
     * Merges each (market, year) snapshot partition's many small files into one (docs/pipelines.md,
     * "Lake maintenance"). The merged file is published atomically before the files it replaces
     * are removed, so readers never miss a row; a retry redoes only what is left.
     */
    async compactSnapshotFiles(request: CompactionRequest = {}): Promise<CompactionResult> {
      const context = Context.current();
      let latest = 'compacting';
      beat(latest);
      const relay = setInterval(() => context.heartbeat(latest), HEARTBEAT_RELAY_MS);
      try {
        return await compactSnapshots(deps.dataDir, {
          ...request,
          onPartition: (partition) => {
            latest = `compacted ${partition}`;
            beat(latest);
          },
        });
      } finally {
        clearInterval(relay);
      }
    },
    /** Creates or migrates `warehouse.duckdb`; a no-op when it is current. */
    async ensureCatalog(): Promise<CatalogStatus> {
      beat('migrating');
      return migrateCatalog(deps.dataDir);
    },
  };
}
