import type { Logger } from 'pino';
import type { ApiReads } from '../reads/api-reads.ts';
import type { ForensicReads } from '../warehouse/forensic-reads.ts';
import type { ScreenService } from './screen-service.ts';

/** What the platform passes the forensic endpoints: their reads of the lake. */
export interface ForensicDeps {
  lake: ForensicReads;
}

/** The forensic use-cases' context: the in-memory universe (ticker resolution), the lake reads and the clock. */
export interface ForensicContext {
  universe: ApiReads;
  lake: ForensicReads;
  now: () => Date;
  logger?: Logger;
}

export function createForensicContext(deps: ForensicDeps, screen: ScreenService): ForensicContext {
  return { universe: screen.reads, lake: deps.lake, now: screen.now, ...(screen.logger ? { logger: screen.logger } : {}) };
}
