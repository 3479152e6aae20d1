import { getConfig } from '../platform/config.ts';
import { serviceStateOf } from '../platform/service-state.ts';
import { openServiceDb, type ServiceDb } from '../service-state/db.ts';

/** An operator command's answer: indented JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Refuses an operator's request: its reason on stderr, and exit code 1. */
export function refuse(message: string): void {
  process.stderr.write(`error: ${message}\n`);
  process.exitCode = 1;
}

/** An error class whose errors are an operator's mistake, answered by `refuse`, not a crash. */
export type Refusal = abstract new (...args: never[]) => Error;

/**
 * Runs one operation on the service state (DATABASE_URL or DATA_DIR/service.db: what every
 * running API process reads, so a change counts there at once); an error of one of the
 * `refusals` classes exits 1 with its reason.
 */
export async function withServiceDb(
  action: (db: ServiceDb, dataDir: string) => Promise<unknown>,
  refusals: readonly Refusal[] = [],
): Promise<void> {
  const config = getConfig();
  const db = await openServiceDb(serviceStateOf(config));
  try {
    await action(db, config.dataDir);
  } catch (error) {
    refuseOrThrow(error, refusals);
  } finally {
    await db.close();
  }
}

/** Answers an operator's mistake with `refuse`; rethrows anything else. */
export function refuseOrThrow(error: unknown, refusals: readonly Refusal[]): void {
  if (!refusals.some((refusal) => error instanceof refusal)) throw error;
  refuse((error as Error).message);
}
