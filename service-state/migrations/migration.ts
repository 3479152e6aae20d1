/** One schema change of the service database, applied once, in version order. */
export interface ServiceMigration {
  version: number;
  name: string;
  sql: string;
}
