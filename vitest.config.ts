import { defineConfig } from 'vitest/config';

/** The suites of the service state (accounts, keys, quotas, attestations), run on each engine. */
const SERVICE_STATE_SUITES = [
  'test/access/**/*.test.ts',
  'test/attest/**/*.test.ts',
  'test/api/access-*.test.ts',
  'test/api/account-*.test.ts',
  'test/api/attest-*.test.ts',
  'test/api/ip-rate-limit.test.ts',
  'test/api/webhooks-*.test.ts',
  'test/webhooks/deliver.test.ts',
  'test/cli/attest-commands.test.ts',
  'test/cli/users-commands.test.ts',
  'test/cli/webhooks-commands.test.ts',
  'test/service-state/custom-screen-store.test.ts',
  'test/api/custom-screens-*.test.ts',
  'test/serving/serving-store.test.ts',
  'test/serving/serving-store-writes.test.ts',
];

export default defineConfig({
  test: {
    // Workflow tests share one real Temporal dev server per file; keep the 2-core machine unsaturated.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      // Everything, with the service state in the embedded default (DATA_DIR/service.db).
      { extends: true, test: { name: 'libsql', include: ['test/**/*.test.ts'], exclude: ['test/scale/**'] } },
      // The service-state suites again, and the scale-out tests, on a throwaway PostgreSQL cluster.
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [...SERVICE_STATE_SUITES, 'test/scale/**/*.test.ts'],
          env: { FAITHSCREEN_TEST_STORE: 'postgres' },
          globalSetup: ['test/support/postgres-global-setup.ts'],
        },
      },
    ],
  },
});
