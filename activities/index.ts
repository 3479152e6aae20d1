export { createActivities, type Activities, type ActivityDeps } from './create-activities.ts';
export { createMaintenanceActivities } from './maintenance.ts';
export { inlineChunkRunner, threadedChunkRunner, type ChunkRunner } from './chunk-runner.ts';
export { createPipelineActivities, planChunks } from './pipeline.ts';
export { fileStemFor } from './screen-chunk.ts';
export type { LoadedInput, PipelineData } from './pipeline-data.ts';
