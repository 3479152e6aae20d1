export { createActivities, type Activities, type ActivityDeps } from './create-activities.ts';
export { createMaintenanceActivities } from './maintenance.ts';
