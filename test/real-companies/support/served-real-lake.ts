/**
 * A real-company lake served by the API with a partner key for every framework, and the reads
 * both real-company tests make of it: the `as_of` verdicts and their reasons over real HTTP, and
 * the full result (reasons included) as researchers read it from the warehouse.
 */
import { expect } from 'vitest';
import type { FrameworkId } from '../../../engine/index.ts';
import { FRAMEWORK_IDS } from '../../../engine/index.ts';
import { createTestApi } from '../../api/support/lake-fixture.ts';
import { keyFor, openTestAccess } from '../../support/access.ts';
import { listen } from '../../support/http.ts';
import { catalogQuery } from '../../support/pipeline-env.ts';
import { makeTempDir } from '../../support/temp-dir.ts';
import { sql, sqlDate } from '../../../warehouse/sql.ts';

// Response bodies are read as loosely typed JSON: the assertions check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
export type Json = Record<string, any>;

export interface ServedRealLake {
  dataDir: string;
  /** The `as_of` answer (statuses, key ratios, provenance); asserts 200 and real-data provenance. */
  verdicts(ticker: string, asOf?: string): Promise<Json>;
  status(ticker: string, id: FrameworkId): Promise<string>;
  /** The `as_of` answer's frameworks on the screening date, each with the reasons stored with its verdict. */
  report(ticker: string): Promise<Json>;
  /** The stored result's frameworks, reasons included, as researchers read them from the warehouse. */
  stored(ticker: string): Promise<Json>;
  close(): Promise<void>;
}

/** Builds a lake with `load` (ingest and screen), then serves it; `date` is the default `as_of`. */
export async function serveRealLake(date: string, load: (dataDir: string) => Promise<void>): Promise<ServedRealLake> {
  const temp = await makeTempDir();
  await load(temp.dir);
  const access = await openTestAccess(temp.dir);
  const key = (await keyFor(access, 'partner', { dailyLimit: 100_000, frameworks: [...FRAMEWORK_IDS] })).key;
  const api = await createTestApi(temp.dir, undefined, access.middleware);
  const server = await listen(api.app);
  const served = new Map<string, Json>();

  const verdicts = async (ticker: string, asOf = date): Promise<Json> => {
    const cacheKey = `${ticker}@${asOf}`;
    const seen = served.get(cacheKey);
    if (seen) return seen;
    const response = await fetch(`${server.url}/api/screen/us/${ticker}?as_of=${asOf}&reasons=true`, { headers: { 'X-API-Key': key } });
    const body = (await response.json()) as Json;
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.provenance).toMatchObject({ data_source: 'edgar', synthetic: false });
    served.set(cacheKey, body);
    return body;
  };
  return {
    dataDir: temp.dir,
    verdicts,
    status: async (ticker, id) => String((await verdicts(ticker)).frameworks[id].status),
    report: async (ticker) => (await verdicts(ticker)).frameworks as Json,
    async stored(ticker) {
      const [row] = await catalogQuery(
        temp.dir,
        sql`SELECT result_json FROM snapshots WHERE ticker = ${ticker} AND snapshot_date = ${sqlDate(date)}`,
      );
      return (JSON.parse(String(row!.result_json)) as Json).frameworks as Json;
    },
    async close() {
      await server.close();
      await api.reads.close();
      await api.forensic.close();
      await access.close();
      await temp.cleanup();
    },
  };
}
