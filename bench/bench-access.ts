import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createAccount, createKey, type KeyRequest } from '../access/administration.ts';
import { openAccess, type AccessSetup } from '../access/open-access.ts';

export interface BenchAccess {
  access: AccessSetup;
  /** A partner key whose daily limit no benchmark reaches. */
  key: string;
  close(): Promise<void>;
}

/**
 * Real access control for a benchmark: a throwaway service.db, one partner account and one
 * key, so measured requests pay for the key check and metering as in production.
 */
export async function openBenchAccess(request: Omit<KeyRequest, 'account' | 'dailyLimit'> = {}): Promise<BenchAccess> {
  const serviceDir = await mkdtemp(path.join(os.tmpdir(), 'faithscreen-bench-service-'));
  const access = await openAccess({ dataDir: serviceDir, upgradeUrl: 'http://127.0.0.1/upgrade' });
  await createAccount(access.store, 'bench', 'partner');
  const { key } = await createKey(access.store, access.hashSecret, { ...request, account: 'bench', dailyLimit: 100_000_000 });
  return {
    access,
    key,
    async close() {
      await access.close();
      await rm(serviceDir, { recursive: true, force: true });
    },
  };
}
