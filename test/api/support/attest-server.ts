/**
 * The API with attestations over DATA_DIR (and DATABASE_URL when set) as a process of its own (for crash tests): prints
 * `listening <url>` once it answers. Run with `node --import tsx`.
 */
import pino from 'pino';
import { createApp } from '../../../api/app.ts';
import { unavailableRefresher } from '../../../api/refresher.ts';
import { createMetrics } from '../../../api/metrics.ts';
import { openServiceDb } from '../../../service-state/db.ts';
import { openApiReads } from '../../../reads/api-reads.ts';

const dataDir = process.env.DATA_DIR!;
const reads = await openApiReads({ dataDir, followIntervalMs: 0 });
const app = createApp({
  logger: pino({ level: 'silent' }),
  metrics: createMetrics(),
  readiness: {},
  screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
  attest: { db: await openServiceDb({ dataDir, databaseUrl: process.env.DATABASE_URL }), dataDir },
  baseUrl: 'http://127.0.0.1',
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
});
