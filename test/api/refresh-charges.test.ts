import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessSetup } from '../../access/open-access.ts';
import { createTemporalRefresher } from '../../api/temporal-refresher.ts';
import { keyFor, meterUsed, openTestAccess } from '../support/access.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { type FixtureTickers, type ServedLakeApi, serveLakeApi } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON under test
type Json = Record<string, any>;

/**
 * A real Temporal dev server with no worker on the refresh queue: a forced refresh starts its
 * workflow, which then waits for a worker, so the request's wait (1.5 s here) runs out.
 */
describe('charges for forced refreshes (real Temporal, no worker: every re-screen outlives its wait)', () => {
  let env: TestWorkflowEnvironment;
  let lake: ServedLakeApi;
  let t: FixtureTickers;
  let access: AccessSetup;
  let serviceDir: Awaited<ReturnType<typeof makeTempDir>>;

  const force = async (key: string, ticker: string) => {
    const response = await fetch(`${lake.server.url}/api/screen/us/${ticker}?force_refresh=true`, { headers: { 'X-API-Key': key } });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Json };
  };
  const used = async (keyId: string) => {
    await access.meter.returnSpare();
    return meterUsed(access, keyId);
  };

  beforeAll(async () => {
    [env, serviceDir] = await Promise.all([startTestTemporal(), makeTempDir()]);
    access = await openTestAccess(serviceDir.dir);
    lake = await serveLakeApi(
      createTemporalRefresher({ client: env.client, taskQueue: 'no-worker-here', waitMs: 1_500 }),
      access.middleware,
    );
    t = lake.t;
  }, 240_000);
  afterAll(async () => {
    await lake?.close();
    await access?.close();
    await env?.teardown();
    await serviceDir?.cleanup();
  });

  it('when a forced refresh starts its workflow and answers 503 after its wait, then it is charged and says so', async () => {
    const key = await keyFor(access, 'partner', { dailyLimit: 100 });
    const answer = await force(key.key, t.fresh[0]!);
    expect(answer.status).toBe(503);
    expect(answer.body.detail).toMatch(/is being re-screened: .*continues in the background.*This request is charged/);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(await used(key.keyId)).toBe(1);
  }, 60_000);

  it('when a key has 4 forced refreshes waiting, then a fifth gets 429 too_many_refreshes at once and costs nothing', async () => {
    const key = await keyFor(access, 'partner', { dailyLimit: 100 });
    const tickers = [t.fresh[0]!, t.fresh[1]!, t.fresh[2]!, t.withHistory, t.stale];
    const answers = await Promise.all(tickers.map((ticker) => force(key.key, ticker)));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.body.detail).toMatch(/too many forced refreshes in flight for this key: at most 4 force_refresh requests/);
    expect(answers.filter((a) => a.status === 503)).toHaveLength(4);
    expect(await used(key.keyId)).toBe(4);
    // Another key is not held back by this one's refreshes.
    const other = await keyFor(access, 'partner', { dailyLimit: 100 });
    expect((await force(other.key, t.fresh[1]!)).status).toBe(503);
  }, 60_000);
});
