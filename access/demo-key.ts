import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createAccount, createKey } from './administration.ts';
import type { AccessSetup } from './open-access.ts';

export const DEMO_ACCOUNT = 'demo';

export function demoKeyPath(dataDir: string): string {
  return path.join(dataDir, 'demo-api-key');
}

/**
 * The first start of the sample demo has no accounts, so nobody could call a metered
 * endpoint: it creates a `demo` account on the pro tier and writes its key to
 * `DATA_DIR/demo-api-key` (mode 0600) — a file, never a log line. Returns the file's path
 * when there is a demo key, null when the service already had accounts of its own.
 */
export async function ensureDemoKey(access: AccessSetup, dataDir: string): Promise<string | null> {
  const file = demoKeyPath(dataDir);
  if (existsSync(file)) return file;
  if ((await access.store.accounts()).length > 0) return null;
  await createAccount(access.store, DEMO_ACCOUNT, 'pro');
  const { key } = await createKey(access.store, access.hashSecret, { account: DEMO_ACCOUNT });
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}
