import { createMaintenanceActivities } from './maintenance.ts';
import { createPipelineActivities } from './pipeline.ts';
import type { PipelineData } from './pipeline-data.ts';

export interface ActivityDeps {
  dataDir: string;
  /** Warehouse and source access for the pipeline activities. */
  data: PipelineData;
}

/** Every activity the worker registers, built from the worker's dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createMaintenanceActivities(deps),
    ...createPipelineActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
