import { createMaintenanceActivities } from './maintenance.ts';

export interface ActivityDeps {
  dataDir: string;
}

/** Every activity the worker registers, built from the worker's dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createMaintenanceActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
