export { createActivities, type Activities, type ActivityDeps } from './create-activities.ts';
export { createMaintenanceActivities } from './maintenance.ts';
export { createPipelineActivities, fileStemFor, planChunks } from './pipeline.ts';
export type { LoadedInput, PipelineData } from './pipeline-data.ts';
