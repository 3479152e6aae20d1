import { ACCESS_MIGRATION } from './migrations/001-access.ts';
import { ATTESTATIONS_MIGRATION } from './migrations/002-attestations.ts';

/** One schema change of the service database, applied once, in version order. */
export interface ServiceMigration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration this build knows. Add new ones with the next version number; never edit an applied one. */
export const SERVICE_MIGRATIONS: readonly ServiceMigration[] = [ACCESS_MIGRATION, ATTESTATIONS_MIGRATION];
