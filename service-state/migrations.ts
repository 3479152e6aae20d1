import { ACCESS_MIGRATION } from './migrations/001-access.ts';
import { ATTESTATIONS_MIGRATION } from './migrations/002-attestations.ts';
import type { ServiceEngine } from './service-db.ts';

/** One schema change of the service state, applied once, in version order, written for each engine. */
export type ServiceMigration = { version: number; name: string } & Record<ServiceEngine, string>;

/** Every migration this build knows. Add new ones with the next version number; never edit an applied one. */
export const SERVICE_MIGRATIONS: readonly ServiceMigration[] = [ACCESS_MIGRATION, ATTESTATIONS_MIGRATION];
