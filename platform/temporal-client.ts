import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';

export interface TemporalTarget {
  address: string;
  namespace: string;
}

/** How long a close waits for calls still in flight (a readiness check, a refresh's start) before closing anyway. */
const CLOSE_WAIT_MS = 10_000;

/**
 * Counts the calls in flight, their retries included: the SDK's retry interceptor schedules a
 * retry of a call the server did not answer on a timer, and a retry fired after the connection
 * closed throws where nothing can catch it, ending the process. So a close first waits for them.
 */
class CallsInFlight {
  private count = 0;
  private readonly idle: Array<() => void> = [];

  /** Outermost, around the retry interceptor: a call ends when its last attempt does. */
  readonly interceptor: Interceptor = (options, nextCall) => {
    const call = nextCall(options);
    this.count += 1;
    let ended = false;
    return new InterceptingCall(call, {
      start: (metadata, _listener, next) =>
        next(metadata, {
          onReceiveStatus: (status, nextStatus) => {
            if (!ended) {
              ended = true;
              this.ended();
            }
            nextStatus(status);
          },
        }),
    });
  };

  private ended(): void {
    this.count -= 1;
    if (this.count === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  /** Resolves when no call is in flight, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/**
 * A lazily connecting client: the API starts even when Temporal is down and reports it in
 * /readyz. `close` stops retries, waits for calls in flight to end their current attempt (at
 * most 10 s), then closes the connection.
 */
export function createLazyClient(target: TemporalTarget): { client: Client; connection: Connection; close: () => Promise<void> } {
  const calls = new CallsInFlight();
  const retries = defaultGrpcRetryOptions();
  let closing = false;
  const connection = Connection.lazy({
    address: target.address,
    connectTimeout: 2_000,
    // Once closing, a failed attempt is final: a call without a deadline would otherwise retry for about 20 s.
    interceptors: [
      calls.interceptor,
      makeGrpcRetryInterceptor({
        ...retries,
        retryableDecider: (attempt, status) => !closing && retries.retryableDecider(attempt, status),
      }),
    ],
  });
  const close = async () => {
    closing = true;
    await calls.settled(CLOSE_WAIT_MS);
    await connection.close();
  };
  return { connection, client: new Client({ connection, namespace: target.namespace }), close };
}

/** Throws with the reason when the Temporal frontend does not answer a health check in time. */
export async function checkTemporal(connection: Connection, timeoutMs = 2_000): Promise<void> {
  await connection.withDeadline(Date.now() + timeoutMs, () => connection.healthService.check({}));
}
