import { createHash } from 'node:crypto';
import { inject } from 'vitest';
import type { ServiceEngine, ServiceStateOptions } from '../../service-state/db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the throwaway cluster test/support/postgres-global-setup.ts started. */
    postgresAdminUrl: string;
  }
}

/**
 * The engine the service-state suites run on: the `postgres` vitest project sets
 * FAITHSCREEN_TEST_STORE=postgres and starts a throwaway cluster; the default project runs libsql.
 */
export const TEST_ENGINE: ServiceEngine = process.env.FAITHSCREEN_TEST_STORE === 'postgres' ? 'postgres' : 'libsql';

const databases = new Map<string, Promise<string>>();

/** A fresh database in the test cluster, one per DATA_DIR (so two "processes" on one DATA_DIR share it). */
function databaseFor(dataDir: string): Promise<string> {
  let url = databases.get(dataDir);
  if (url === undefined) {
    url = (async () => {
      const adminUrl = inject('postgresAdminUrl');
      const name = `fs_${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`;
      const { default: pg } = await import('pg');
      const admin = new pg.Pool({ connectionString: adminUrl, max: 1 });
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      const parsed = new URL(adminUrl);
      parsed.pathname = `/${name}`;
      return parsed.toString();
    })();
    databases.set(dataDir, url);
  }
  return url;
}

/** Where a test's service state lives: DATA_DIR/service.db, or its own PostgreSQL database. */
export async function testServiceState(dataDir: string): Promise<ServiceStateOptions> {
  return TEST_ENGINE === 'postgres' ? { dataDir, databaseUrl: await databaseFor(dataDir) } : { dataDir };
}

/** The environment a faithscreen child process needs to find the same service state. */
export async function testServiceEnv(dataDir: string): Promise<Record<string, string>> {
  const { databaseUrl } = await testServiceState(dataDir);
  return { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
}
