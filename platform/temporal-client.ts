import { Client, Connection } from '@temporalio/client';

export interface TemporalTarget {
  address: string;
  namespace: string;
}

/** A lazily connecting client: the API starts even when Temporal is down and reports it in /readyz. */
export function createLazyClient(target: TemporalTarget): { client: Client; connection: Connection } {
  const connection = Connection.lazy({ address: target.address, connectTimeout: 2_000 });
  return { connection, client: new Client({ connection, namespace: target.namespace }) };
}

/** Throws with the reason when the Temporal frontend does not answer a health check in time. */
export async function checkTemporal(connection: Connection, timeoutMs = 2_000): Promise<void> {
  await connection.withDeadline(Date.now() + timeoutMs, () => connection.healthService.check({}));
}
