export { lakeMaintenance, type LakeMaintenanceInput, type LakeMaintenanceResult } from './lake-maintenance.ts';
export { nightlyScreen, progressQuery, type NightlyScreenInput } from './nightly-screen.ts';
export { backfill, type BackfillInput } from './backfill.ts';
export { deliverStatusChanges } from './deliver-status-changes.ts';
export { deliverSubscriptionEvents } from './deliver-subscription-events.ts';
export { refreshTicker, refreshWorkflowId, type RefreshTickerInput } from './refresh-ticker.ts';
