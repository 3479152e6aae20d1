import { readFileSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../access/administration.ts';
import { claimedKeyId } from '../../access/api-key-format.ts';
import { demoKeyPath, ensureDemoKey } from '../../access/demo-key.ts';
import { apiKeyMatches } from '../../access/key-hashing.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let access: AccessSetup;

beforeEach(async () => {
  temp = await makeTempDir();
  access = await openAccess({ ...(await testServiceState(temp.dir)), upgradeUrl: 'https://x.test/upgrade' });
});
afterEach(async () => {
  await access.close();
  await temp.cleanup();
});

describe('the demo key of the first start', () => {
  it('is created once for a pro demo account, in a file only its owner can read, and it authenticates', async () => {
    const file = await ensureDemoKey(access, temp.dir);
    expect(file).toBe(demoKeyPath(temp.dir));
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    const key = readFileSync(file!, 'utf8').trim();
    const record = (await access.store.key(claimedKeyId(key)!))!;
    expect(record.account).toBe('demo');
    expect((await access.store.account('demo'))?.tier).toBe('pro');
    expect(apiKeyMatches(access.hashSecret, key, record.secretHash)).toBe(true);
    expect(await ensureDemoKey(access, temp.dir)).toBe(file);
    expect(await access.store.keys()).toHaveLength(1);
  });

  it('is not created when the service already has accounts of its own', async () => {
    await createAccount(access.store, 'acme', 'team');
    expect(await ensureDemoKey(access, temp.dir)).toBeNull();
    expect(await access.store.account('demo')).toBeUndefined();
  });
});
