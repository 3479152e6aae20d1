export type { Migration, MigrationContext } from './migration.ts';
export { MIGRATIONS } from './registry.ts';
