import type { ServiceEngine } from '../service-db.ts';

/** One schema change of the service state, applied once, in version order, written for each engine. */
export type ServiceMigration = { version: number; name: string } & Record<ServiceEngine, string>;
