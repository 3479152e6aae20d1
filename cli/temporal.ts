import { Client, Connection } from '@temporalio/client';
import { getConfig } from '../platform/config.ts';

/** Connects the CLI to Temporal, or fails with what to do about it. */
export async function connectCliClient(): Promise<{ client: Client; close: () => Promise<void> }> {
  const config = getConfig();
  let connection: Connection;
  try {
    connection = await Connection.connect({ address: config.temporalAddress, connectTimeout: 3_000 });
  } catch (error) {
    const hint = config.embeddedTemporal
      ? 'start it with `npm start` (or `faithscreen dev-server`), or set TEMPORAL_ADDRESS'
      : 'check TEMPORAL_ADDRESS';
    throw new Error(`cannot reach Temporal at ${config.temporalAddress}: ${(error as Error).message}; ${hint}`);
  }
  return { client: new Client({ connection, namespace: config.TEMPORAL_NAMESPACE }), close: () => connection.close() };
}
