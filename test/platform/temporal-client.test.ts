import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { checkTemporal, createLazyClient } from '../../platform/temporal-client.ts';

/** A port on 127.0.0.1 nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the lazy Temporal client', () => {
  it('when closed while a call to an unreachable server waits for a retry, then the close waits for the call and nothing throws after it', async () => {
    const { connection, close } = createLazyClient({ address: `127.0.0.1:${await closedPort()}`, namespace: 'default' });
    let settled = false;
    const check = checkTemporal(connection, 1_500).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    void check.finally(() => (settled = true));
    // Refused at once and retried on a timer: the call is in flight between attempts.
    await sleep(300);
    expect(settled).toBe(false);
    await close();
    // The call's own promise settles a few callbacks after its last status, which the close waited for.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(true);
    expect(await check).not.toBe('answered');
    // A retry left on its timer would fire on the closed channel here and throw uncaught, failing the run.
    await sleep(1_000);
  });

  it("when closed while a call without a deadline retries (a refresh's workflow start), then it is not retried again and nothing throws after the close", async () => {
    const { client, close } = createLazyClient({ address: `127.0.0.1:${await closedPort()}`, namespace: 'default' });
    const start = client.workflow.start('refreshTicker', { taskQueue: 'nowhere', workflowId: 'close-test', args: [] }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    await sleep(500);
    const closing = Date.now();
    await close();
    // Its retries would have run on for about 20 s.
    expect(Date.now() - closing).toBeLessThan(8_000);
    expect(await start).not.toBe('started');
    await sleep(2_000);
  }, 20_000);

  it('when nothing is in flight, then the close does not wait', async () => {
    const { close } = createLazyClient({ address: `127.0.0.1:${await closedPort()}`, namespace: 'default' });
    const started = Date.now();
    await close();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
