import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres-cluster.ts';

/** One throwaway PostgreSQL cluster for the `postgres` project's run; each test makes databases in it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}
