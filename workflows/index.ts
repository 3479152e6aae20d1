export { lakeMaintenance, type LakeMaintenanceResult } from './lake-maintenance.ts';
