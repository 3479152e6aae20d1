import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CertificateStore } from '../../attest/certificate-store.ts';
import { SigningKeys } from '../../attest/signing-keys.ts';
import { signatureMatches } from '../../attest/signing.ts';
import { openServiceDb } from '../../service-state/db.ts';
import { testServiceEnv, testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { buildLake, type FixtureTickers } from './support/lake-fixture.ts';

/** Starts the API as its own process on `dataDir` and resolves with its URL. */
async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const script = new URL('./support/attest-server.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...(await testServiceEnv(dataDir)) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening (\S+)/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.once('exit', (code) => reject(new Error(`API process exited early with ${code}`)));
  });
}

describe('a certificate answered with 200 survives the API process being killed', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let t: FixtureTickers;

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-attest-crash-');
    t = await buildLake(temp.dir);
  }, 180_000);
  afterAll(() => temp?.cleanup());

  it('when the process is SIGKILLed while mints are in flight, then every certificate it answered is in the service state and verifies', async () => {
    const { child, url } = await startServer(temp.dir);
    const answered: Array<Record<string, string>> = [];
    const mints = t.fresh.slice(0, 20).map(async (ticker) => {
      const response = await fetch(`${url}/api/attest/us/${ticker}?standard=shariah_djim`, { method: 'POST' });
      const body = (await response.json()) as Record<string, string>;
      if (response.status === 200) answered.push(body);
      if (answered.length === 8) child.kill('SIGKILL');
    });
    await Promise.allSettled(mints);
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
    expect(child.signalCode).toBe('SIGKILL');
    expect(answered.length).toBeGreaterThanOrEqual(8);

    const db = await openServiceDb(await testServiceState(temp.dir));
    try {
      const certificates = new CertificateStore(db);
      const keys = new SigningKeys(db, temp.dir);
      for (const body of answered) {
        const stored = await certificates.find(body.cert_id!);
        expect(stored?.sig).toBe(body.sig);
        expect(signatureMatches(stored!.fields, stored!.sig, keys.trustedSecret(stored!.fields.key_id, stored!.keyStatus)!)).toBe(true);
      }
    } finally {
      await db.close();
    }
  });
});
