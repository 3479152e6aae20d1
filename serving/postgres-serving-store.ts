import type { ServingStore } from './serving-types.ts';

export async function openPostgresServingStore(databaseUrl: string): Promise<ServingStore> {
  throw new Error(`serving store on PostgreSQL (${databaseUrl.replace(/\/\/[^@]*@/, '//')}) not built yet`);
}
