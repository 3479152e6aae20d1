import { Context } from '@temporalio/activity';
import { migrateCatalog, type CatalogStatus } from '../warehouse/catalog.ts';
import { lakeRoot } from '../warehouse/lake-paths.ts';
import { runsRoot } from './failure-log.ts';
import { sweepTempFiles } from '../warehouse/publish.ts';

/** Heartbeats and stops early when the workflow cancelled this activity. */
function beat(details: string): void {
  const context = Context.current();
  context.heartbeat(details);
  context.cancellationSignal.throwIfAborted();
}

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
    /** Creates or migrates `warehouse.duckdb`; a no-op when it is current. */
    async ensureCatalog(): Promise<CatalogStatus> {
      beat('migrating');
      return migrateCatalog(deps.dataDir);
    },
  };
}
