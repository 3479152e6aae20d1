import Database from 'libsql';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScreeningResult } from '../../engine/index.ts';
import { threadedReportRenderer, type ReportRenderer } from '../../api/report-renderer.ts';
import { SqliteServingStore } from '../../serving/sqlite-serving-store.ts';
import { openApiReads, type ApiReads, type ApiReadsOptions } from '../../reads/api-reads.ts';
import { syncServingFromLake } from '../../warehouse/serving-sync.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { expandResultJson, UnknownTextError } from '../../warehouse/methodology-texts.ts';
import { loadQuotedTexts } from '../../warehouse/methodology-texts-lake.ts';
import { readSql, sql } from '../../warehouse/sql.ts';
import { listen } from '../support/http.ts';
import { screenApp } from './support/screen-app.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { buildSpreadLake, type SpreadLake } from './support/spread-lake.ts';

// Response bodies are read as loosely typed JSON: the assertions check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

interface Served {
  url: string;
  reads: ApiReads;
  close(): Promise<void>;
}

/** The Koa app over the lake with the given read options, on an ephemeral port, its report caches cold. */
async function serve(dataDir: string, options: Omit<ApiReadsOptions, 'dataDir'>, renderer?: ReportRenderer): Promise<Served> {
  const reads = await openApiReads({ dataDir, followIntervalMs: 0, ...options });
  const app = screenApp(reads, renderer ? { renderer } : {});
  const server = await listen(app);
  return {
    url: server.url,
    reads,
    async close() {
      await server.close();
      await reads.close();
      await renderer?.close();
    },
  };
}

async function getJson(url: string): Promise<{ status: number; retryAfter: string | null; body: Json }> {
  const response = await fetch(url);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Json };
}

describe('reads spread over many distinct tickers, over a lake laid out as the nightly screen writes it', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let lake: SpreadLake;
  /** Every stored result, read straight from the Parquet files (texts put back): what each body must carry. */
  const stored = new Map<string, ScreeningResult>();

  beforeAll(async () => {
    temp = await makeTempDir();
    lake = await buildSpreadLake(temp.dir, { scale: 0.02, markets: ['us'], chunkSize: 200 });
    const glob = path.join(lakeRoot(temp.dir), 'snapshots', 'market=us', '**', '*.parquet');
    await withDuckDB(':memory:', {}, async (c) => {
      const texts = await loadQuotedTexts(c, temp.dir);
      for (const [ticker, json] of (
        await readSql(c, sql`SELECT ticker, result_json FROM read_parquet(${glob}) WHERE result_json IS NOT NULL`)
      ).getRowsJS()) {
        stored.set(String(ticker), JSON.parse(expandResultJson(String(json), (id) => texts.get(id))) as ScreeningResult);
      }
    });
  }, 180_000);
  afterAll(() => temp?.cleanup());

  /** Asserts a screen body is the stored result of its own ticker. */
  const expectStoredReport = (ticker: string, body: Json, withConsensus = true) => {
    const expected = stored.get(ticker)!;
    expect(body.ticker).toBe(ticker);
    expect(body.report.financial_data.ratios).toEqual(expected.ratios);
    expect(body.report.shariah_aaoifi).toEqual(expected.frameworks.shariah_aaoifi);
    expect(body.report.service_consensus).toEqual(withConsensus ? expected.frameworks.service_consensus : undefined);
  };

  it('has several files of hundreds of distinct stocks to spread over', () => {
    expect(lake.files).toBeGreaterThanOrEqual(3);
    expect(lake.stocks.length).toBeGreaterThanOrEqual(400);
  });

  it('when every request asks for a different cold ticker, all at once, then each answers 200 with its own stored report, read from the serving store', async () => {
    const api = await serve(temp.dir, {});
    try {
      const tickers = lake.stocks.map((s) => s.ticker);
      const answers = await Promise.all(tickers.map((t) => getJson(`${api.url}/api/screen/us/${t}`)));
      expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
      answers.forEach((a, i) => expectStoredReport(tickers[i]!, a.body));
      // The store held every file's rows from its publish: nothing was copied at the start.
      expect(api.reads.stats().servingSync?.filesCopied).toBe(0);
    } finally {
      await api.close();
    }
  }, 120_000);

  it('when a key selects one framework, then its cold report carries that framework alone, from the same stored result', async () => {
    const api = await serve(temp.dir, {});
    try {
      const tickers = lake.stocks.slice(0, 60).map((s) => s.ticker);
      const answers = await Promise.all(tickers.map((t) => getJson(`${api.url}/api/screen/us/${t}?framework=shariah_aaoifi`)));
      expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
      answers.forEach((a, i) => {
        expectStoredReport(tickers[i]!, a.body, false);
        expect(a.body.report.shariah_ftse).toBeUndefined();
      });
    } finally {
      await api.close();
    }
  }, 120_000);

  it('when the render threads already have 2 cold reports waiting, then further ones are shed with 503, Retry-After and a JSON reason, never 500', async () => {
    const api = await serve(temp.dir, {}, threadedReportRenderer(1, { maxQueued: 2, retryAfterSeconds: 2 }));
    try {
      const tickers = lake.stocks.map((s) => s.ticker).slice(0, 80);
      const answers = await Promise.all(tickers.map((t) => getJson(`${api.url}/api/screen/us/${t}`)));
      const shed = answers.filter((a) => a.status === 503);
      expect([...new Set(answers.map((a) => a.status))].sort()).toEqual([200, 503]);
      answers.forEach((a, i) => a.status === 200 && expectStoredReport(tickers[i]!, a.body));
      expect(shed.map((a) => a.retryAfter)).toEqual(shed.map(() => '2'));
      for (const a of shed)
        expect(a.body.detail).toMatchObject({
          message: expect.stringMatching(/cold reports are already waiting for a render thread \(limit 2\).*retry after 2 s/),
          retry_after_seconds: 2,
        });
    } finally {
      await api.close();
    }
  }, 120_000);

  it('when the texts a stored result references are missing from the store, then its result is refused, never served with a reference', async () => {
    const store = new SqliteServingStore(path.join(temp.dir, 'texts-missing.db'));
    try {
      // A store holding the snapshots but none of their texts (copied from the lake, then the texts lost).
      await syncServingFromLake(temp.dir, store);
      const db = new Database(path.join(temp.dir, 'texts-missing.db'));
      db.exec('DELETE FROM serving_texts');
      db.close();
      const reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0, serving: store });
      try {
        const row = reads.current('us', lake.stocks[0]!.ticker)!;
        await expect(reads.resultJson(row)).rejects.toThrow(UnknownTextError);
      } finally {
        await reads.close();
      }
    } finally {
      await store.close();
    }
  }, 120_000);

  it('when a batch asks for 100 distinct tickers, then it answers 100 results in request order, each its own stored report', async () => {
    const api = await serve(temp.dir, {});
    try {
      const tickers = lake.stocks
        .filter((_, i) => i % 3 === 0)
        .slice(0, 100)
        .map((s) => s.ticker);
      const response = await fetch(`${api.url}/api/screen/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tickers: tickers.map((ticker) => ({ market: 'us', ticker })) }),
      });
      const body = (await response.json()) as Json;
      expect(response.status).toBe(200);
      expect(body).toMatchObject({ requested: 100, succeeded: 100, failed: 0, errors: [] });
      expect(body.results.map((r: Json) => r.ticker)).toEqual(tickers);
      body.results.forEach((r: Json, i: number) => expectStoredReport(tickers[i]!, r));
    } finally {
      await api.close();
    }
  }, 120_000);
});
