import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import type { ScreeningResult } from '../../engine/index.ts';
import { createMetrics } from '../../api/metrics.ts';
import { inlineReportRenderer, threadedReportRenderer, type ReportRenderer } from '../../api/report-renderer.ts';
import { PRERENDER_REPORTS, PRERENDERED_FRAMEWORKS } from '../../api/report-prerender.ts';
import { scopeFrameworks } from '../../api/access-scope.ts';
import { createScreenService } from '../../api/screen-service.ts';
import { reportCached, screenResponseJson, serveScreen } from '../../api/use-cases/screen-ticker.ts';
import { UNSCOPED_KEY_FRAMEWORKS } from '../../common/grants.ts';
import { openApiReads, type ApiReads, type ApiReadsOptions } from '../../warehouse/api-reads/api-reads.ts';
import { SIDECAR_FORMAT, type SidecarIndex } from '../../warehouse/api-reads/api-reads-sidecar-build.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { expandResultJson, UnknownTextError } from '../../warehouse/methodology-texts.ts';
import { loadQuotedTexts } from '../../warehouse/methodology-texts-lake.ts';
import { readSql, sql } from '../../warehouse/sql.ts';
import { listen } from '../support/http.ts';
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
  const app = createApp({
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(),
    readiness: {},
    screen: {
      reads,
      refresher: unavailableRefresher,
      cache: { freshDays: 1, staleWhileRevalidateDays: 7 },
      ...(renderer ? { renderer } : {}),
    },
  });
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

  it('when every request asks for a different cold ticker, all at once, then each answers 200 with its own stored report (point-read sidecars)', async () => {
    const api = await serve(temp.dir, {});
    try {
      await api.reads.whenSidecarsBuilt();
      expect(api.reads.stats().sidecarFiles).toBe(lake.files);
      const tickers = lake.stocks.map((s) => s.ticker);
      const answers = await Promise.all(tickers.map((t) => getJson(`${api.url}/api/screen/us/${t}`)));
      expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
      answers.forEach((a, i) => expectStoredReport(tickers[i]!, a.body));
      // Every result came from a sidecar: no query of the Parquet files.
      expect(api.reads.stats().resultQueries).toBe(0);
    } finally {
      await api.close();
    }
  }, 120_000);

  it('when a cold report is read from its sidecar in the render thread, then its body is byte for byte the one rendered from Parquet', async () => {
    const tickers = lake.stocks.slice(0, 40).map((s) => s.ticker);
    const bodies = async (options: Omit<ApiReadsOptions, 'dataDir'>) => {
      const api = await serve(temp.dir, options);
      try {
        await api.reads.whenSidecarsBuilt();
        const texts = await Promise.all(tickers.map(async (t) => (await fetch(`${api.url}/api/screen/us/${t}`)).text()));
        return { texts, queries: api.reads.stats().resultQueries };
      } finally {
        await api.close();
      }
    };
    const fromSidecars = await bodies({});
    const fromParquet = await bodies({ sidecars: false });
    expect(fromSidecars.queries).toBe(0);
    expect(fromParquet.queries).toBeGreaterThan(0);
    expect(fromSidecars.texts).toEqual(fromParquet.texts);
  }, 120_000);

  /** Renders on the event loop, counting its renders. */
  const countingRenderer = () => {
    const counter = { renders: 0, renderer: { ...inlineReportRenderer } as ReportRenderer };
    counter.renderer.render = (task) => {
      counter.renders += 1;
      return inlineReportRenderer.render(task);
    };
    return counter;
  };

  /** The frameworks a key without a framework scope sees when it names none: the selection sidecars pre-render. */
  const unscopedKeyDefault = `?framework=${UNSCOPED_KEY_FRAMEWORKS.join(',')}`;

  it('when sidecars pre-render the default report, then a cold screen answers it without a render, byte for byte the rendered one, and other selections still render', async () => {
    expect(scopeFrameworks(null, { allowedFrameworks: [...UNSCOPED_KEY_FRAMEWORKS], allowedMarkets: null })).toEqual(
      PRERENDERED_FRAMEWORKS,
    );
    const tickers = lake.stocks.slice(0, 120).map((s) => s.ticker);
    const bodies = async (options: Omit<ApiReadsOptions, 'dataDir'>, query = unscopedKeyDefault) => {
      const counter = countingRenderer();
      const api = await serve(temp.dir, options, counter.renderer);
      try {
        await api.reads.whenSidecarsBuilt();
        const texts = await Promise.all(tickers.map(async (t) => (await fetch(`${api.url}/api/screen/us/${t}${query}`)).text()));
        return { texts, renders: counter.renders, queries: api.reads.stats().resultQueries };
      } finally {
        await api.close();
      }
    };
    const prerendered = await bodies({ prerenderReports: PRERENDER_REPORTS, sidecars: { dir: path.join(temp.dir, 'prerendered') } });
    const rendered = await bodies({});
    expect(prerendered.renders).toBe(0);
    expect(prerendered.queries).toBe(0);
    expect(rendered.renders).toBe(tickers.length);
    expect(prerendered.texts).toEqual(rendered.texts);
    for (const [i, text] of prerendered.texts.entries()) expectStoredReport(tickers[i]!, JSON.parse(text) as Json, false);

    for (const selection of ['?framework=shariah_aaoifi', '']) {
      const selected = await bodies(
        { prerenderReports: PRERENDER_REPORTS, sidecars: { dir: path.join(temp.dir, 'prerendered') } },
        selection,
      );
      expect(selected.renders).toBe(tickers.length);
      expect(selected.texts).toEqual((await bodies({}, selection)).texts);
    }
  }, 180_000);

  it('when the listing names another company than the stored result, then no pre-rendered report is served for it (a render names the listing)', async () => {
    const reads = await openApiReads({
      dataDir: temp.dir,
      followIntervalMs: 0,
      prerenderReports: PRERENDER_REPORTS,
      sidecars: { dir: path.join(temp.dir, 'prerendered') },
    });
    try {
      await reads.whenSidecarsBuilt();
      const { ticker } = lake.stocks[3]!;
      const row = reads.current('us', ticker)!;
      const name = reads.listing('us', ticker)!.name;
      expect(name.length).toBeGreaterThan(0);
      const report = JSON.parse(reads.prerenderedReport(row, name)!.toString('utf8')) as Json;
      expect(report).toMatchObject({ ticker, company_name: name });
      expect(reads.prerenderedReport(row, `${name} (renamed)`)).toBeNull();
      // No listing name: a render names the result's own company, as the pre-rendered report does.
      expect(JSON.parse(reads.prerenderedReport(row, '')!.toString('utf8'))).toEqual(report);
    } finally {
      await reads.close();
    }
  }, 120_000);

  it('when a sidecar pre-renders reports, then its index holds the inflated length of each report, which a read inflates it into', async () => {
    const dir = path.join(temp.dir, 'prerendered-lengths');
    const reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0, prerenderReports: PRERENDER_REPORTS, sidecars: { dir } });
    try {
      await reads.whenSidecarsBuilt();
      const indexes = (await readdir(dir)).filter((name) => name.endsWith('.idx.json'));
      expect(indexes.length).toBe(lake.files);
      let checked = 0;
      for (const name of indexes) {
        const index = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as SidecarIndex;
        expect(index.version).toBe(SIDECAR_FORMAT);
        for (const [ticker, , , , , , companyName, reportBytes] of index.rows) {
          const report = reads.prerenderedReport(reads.current('us', ticker)!, companyName!)!;
          expect(report.length).toBe(reportBytes);
          // One buffer of the report's size (and the byte zlib needs to see the end), not joined 16 kB chunks.
          // A report is ~23 kB: far above the 4 kB under which Node would slice it from its shared pool.
          expect(report.buffer.byteLength).toBe(reportBytes! + 1);
          checked += 1;
        }
      }
      expect(checked).toBe(lake.stocks.length);
    } finally {
      await reads.close();
    }
  }, 120_000);

  it('when a pre-rendered report is asked for, then it is cached only on its second request (spread traffic does not churn the cache), with the same bytes', async () => {
    const reads = await openApiReads({
      dataDir: temp.dir,
      followIntervalMs: 0,
      prerenderReports: PRERENDER_REPORTS,
      sidecars: { dir: path.join(temp.dir, 'prerendered') },
    });
    const counter = countingRenderer();
    const service = createScreenService({
      reads,
      refresher: unavailableRefresher,
      cache: { freshDays: 1, staleWhileRevalidateDays: 7 },
      renderer: counter.renderer,
    });
    try {
      await reads.whenSidecarsBuilt();
      const { ticker } = lake.stocks[7]!;
      const outcome = await serveScreen(service, { market: 'us', ticker, forceRefresh: false });
      const answers = [];
      for (let i = 0; i < 3; i += 1) {
        answers.push(await screenResponseJson(service, outcome, PRERENDERED_FRAMEWORKS));
        expect(reportCached(service, outcome, PRERENDERED_FRAMEWORKS)).toBe(i >= 1);
      }
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      expect(counter.renders).toBe(0);
      // Another selection renders and is cached at once, as before.
      await screenResponseJson(service, outcome, ['shariah_aaoifi']);
      expect(reportCached(service, outcome, ['shariah_aaoifi'])).toBe(true);
      expect(counter.renders).toBe(1);
    } finally {
      await reads.close();
    }
  }, 120_000);

  it('when the rendering code changes (another pre-render version), then the sidecars are built again, not served stale', async () => {
    const dir = path.join(temp.dir, 'prerendered-versions');
    const built = async (version: string) => {
      const reads = await openApiReads({
        dataDir: temp.dir,
        followIntervalMs: 0,
        prerenderReports: { ...PRERENDER_REPORTS, version },
        sidecars: { dir },
      });
      try {
        await reads.whenSidecarsBuilt();
        expect(reads.stats().sidecarFiles).toBe(lake.files);
        return (await readdir(dir)).filter((name) => name.endsWith('.bin')).sort();
      } finally {
        await reads.close();
      }
    };
    const first = await built('v1');
    expect(await built('v1')).toEqual(first);
    const second = await built('v2');
    expect(second).toHaveLength(first.length);
    expect(second.filter((name) => first.includes(name))).toEqual([]);
    expect(PRERENDER_REPORTS.version).toMatch(new RegExp(`^${UNSCOPED_KEY_FRAMEWORKS.join(',')} [0-9a-f]{16}$`));
  }, 180_000);

  it('when a pre-rendering sidecar file is deleted after it was loaded, then its pre-rendered reports still answer 200 without a render', async () => {
    const dir = path.join(temp.dir, 'prerendered-deleted');
    const counter = countingRenderer();
    const api = await serve(temp.dir, { prerenderReports: PRERENDER_REPORTS, sidecars: { dir } }, counter.renderer);
    try {
      await api.reads.whenSidecarsBuilt();
      for (const name of await readdir(dir)) if (name.endsWith('.bin')) await rm(path.join(dir, name));
      const tickers = lake.stocks.slice(200, 230).map((s) => s.ticker);
      const answers = await Promise.all(tickers.map((t) => getJson(`${api.url}/api/screen/us/${t}${unscopedKeyDefault}`)));
      expect(answers.map((a) => a.status)).toEqual(tickers.map(() => 200));
      answers.forEach((a, i) => expectStoredReport(tickers[i]!, a.body, false));
      expect(counter.renders).toBe(0);
    } finally {
      await api.close();
    }
  }, 120_000);

  it('when the render threads already have 2 cold reports waiting, then further ones are shed with 503, Retry-After and a JSON reason, never 500', async () => {
    const api = await serve(temp.dir, {}, threadedReportRenderer(1, { maxQueued: 2, retryAfterSeconds: 2 }));
    try {
      await api.reads.whenSidecarsBuilt();
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

  it('when a sidecar file is deleted after it was loaded, then its cold reports still answer 200 with their stored report', async () => {
    const api = await serve(temp.dir, {});
    try {
      await api.reads.whenSidecarsBuilt();
      const dir = path.join(temp.dir, 'api-cache', 'results');
      for (const name of await readdir(dir)) if (name.endsWith('.bin')) await rm(path.join(dir, name));
      const tickers = lake.stocks.slice(100, 130).map((s) => s.ticker);
      const answers = await Promise.all(tickers.map((t) => getJson(`${api.url}/api/screen/us/${t}`)));
      expect(answers.map((a) => a.status)).toEqual(tickers.map(() => 200));
      answers.forEach((a, i) => expectStoredReport(tickers[i]!, a.body));
    } finally {
      await api.close();
    }
  }, 120_000);

  /** Runs `work` with the lake's methodology_texts table moved away, then puts it back. */
  const withoutTexts = async (work: () => Promise<void>) => {
    const texts = path.join(lakeRoot(temp.dir), 'methodology_texts');
    const aside = `${texts}.aside`;
    await rename(texts, aside);
    try {
      await work();
    } finally {
      if (existsSync(aside)) await rename(aside, texts);
    }
  };

  it('when the sidecars are built, then they hold each result with its methodology texts expanded: serving from them reads no texts', async () => {
    const api = await serve(temp.dir, {});
    try {
      await api.reads.whenSidecarsBuilt();
      await withoutTexts(async () => {
        const tickers = lake.stocks.slice(0, 60).map((s) => s.ticker);
        const answers = await Promise.all(tickers.map((t) => getJson(`${api.url}/api/screen/us/${t}`)));
        expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
        answers.forEach((a, i) => expectStoredReport(tickers[i]!, a.body));
        expect(JSON.stringify(answers[0]!.body)).not.toContain('\\u0000');
      });
      expect(api.reads.stats().resultQueries).toBe(0);
    } finally {
      await api.close();
    }
  }, 120_000);

  it('when the texts a file references are missing, then no sidecar is built for it and its results are refused, never served with a reference', async () => {
    const sidecarDir = path.join(temp.dir, 'sidecars-without-texts');
    const errors: unknown[] = [];
    await withoutTexts(async () => {
      const reads = await openApiReads({
        dataDir: temp.dir,
        followIntervalMs: 0,
        checkpoint: false,
        sidecars: { dir: sidecarDir },
        onError: (e) => errors.push(e),
      });
      try {
        await reads.whenSidecarsBuilt();
        expect(reads.stats().sidecarFiles).toBe(0);
        expect(errors.length).toBe(lake.files);
        expect(String(errors[0])).toMatch(/methodology text [0-9a-f]{12}/);
        const row = reads.current('us', lake.stocks[0]!.ticker)!;
        await expect(reads.resultJson(row)).rejects.toThrow(UnknownTextError);
      } finally {
        await reads.close();
      }
    });
  }, 120_000);

  it('when sidecars are off, then concurrent distinct reads queue by file and still all answer 200 with their own report', async () => {
    const api = await serve(temp.dir, { sidecars: false });
    try {
      const tickers = lake.stocks.map((s) => s.ticker).slice(0, 300);
      const answers = await Promise.all(tickers.map((t) => getJson(`${api.url}/api/screen/us/${t}`)));
      expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
      answers.forEach((a, i) => expectStoredReport(tickers[i]!, a.body));
      // Waiting reads of one file share a query: far fewer queries than requests.
      expect(api.reads.stats().resultQueries).toBeLessThan(tickers.length / 4);
    } finally {
      await api.close();
    }
  }, 120_000);

  it('when a batch asks for 100 distinct tickers, then it answers 100 results in request order with one query per file', async () => {
    const api = await serve(temp.dir, { sidecars: false });
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
      const files = new Set(lake.stocks.filter((s) => tickers.includes(s.ticker)).map((s) => lake.fileOf.get(s.ticker)));
      expect(api.reads.stats().resultQueries).toBe(files.size);
    } finally {
      await api.close();
    }
  }, 120_000);

  it('when a batch asks for 100 distinct tickers in the pre-rendered selection, then each report is the pre-rendered one, no render and no query, the bodies single screens answer', async () => {
    const tickers = lake.stocks
      .filter((_, i) => i % 3 === 1)
      .slice(0, 100)
      .map((s) => s.ticker);
    const batch = async (api: Served, frameworks: readonly string[]) => {
      const response = await fetch(`${api.url}/api/screen/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tickers: tickers.map((ticker) => ({ market: 'us', ticker })), frameworks }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Json;
    };
    const counter = countingRenderer();
    const api = await serve(
      temp.dir,
      { prerenderReports: PRERENDER_REPORTS, sidecars: { dir: path.join(temp.dir, 'prerendered') } },
      counter.renderer,
    );
    try {
      await api.reads.whenSidecarsBuilt();
      const body = await batch(api, PRERENDERED_FRAMEWORKS);
      expect(body).toMatchObject({ requested: 100, succeeded: 100, failed: 0, errors: [] });
      expect(counter.renders).toBe(0);
      expect(api.reads.stats().resultQueries).toBe(0);
      const singles = await Promise.all(
        tickers.map(async (t) => (await getJson(`${api.url}/api/screen/us/${t}${unscopedKeyDefault}`)).body),
      );
      expect(body.results).toEqual(singles);
      body.results.forEach((r: Json, i: number) => expectStoredReport(tickers[i]!, r, false));
      // Another selection has nothing pre-rendered: each item renders from its stored result.
      const aaoifi = await batch(api, ['shariah_aaoifi']);
      expect(aaoifi.succeeded).toBe(100);
      expect(counter.renders).toBe(100);
    } finally {
      await api.close();
    }
  }, 120_000);

  it('when the read queue is full, then requests are shed with 503, Retry-After and a JSON reason, never 500', async () => {
    const api = await serve(temp.dir, { sidecars: false, pointReads: { maxQueued: 2, retryAfterSeconds: 2 } });
    try {
      const tickers = lake.stocks.map((s) => s.ticker).slice(0, 60);
      const answers = await Promise.all(tickers.map((t) => getJson(`${api.url}/api/screen/us/${t}`)));
      const statuses = new Set(answers.map((a) => a.status));
      expect([...statuses].sort()).toEqual([200, 503]);
      answers.forEach((a, i) => a.status === 200 && expectStoredReport(tickers[i]!, a.body));
      const shed = answers.filter((a) => a.status === 503);
      expect(shed.map((a) => a.retryAfter)).toEqual(shed.map(() => '2'));
      for (const a of shed)
        expect(a.body.detail).toMatchObject({
          message: expect.stringMatching(/reading at capacity .*retry after 2 s/),
          retry_after_seconds: 2,
        });
    } finally {
      await api.close();
    }
  }, 120_000);

  it('when the read queue cannot take a whole batch, then the batch answers 503 with Retry-After, not 100 item errors', async () => {
    const api = await serve(temp.dir, { sidecars: false, pointReads: { maxQueued: 10, retryAfterSeconds: 1 } });
    try {
      const tickers = lake.stocks.slice(0, 50).map((s) => s.ticker);
      const response = await fetch(`${api.url}/api/screen/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tickers: tickers.map((ticker) => ({ market: 'us', ticker })) }),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(((await response.json()) as Json).detail.message).toMatch(/reading at capacity/);
    } finally {
      await api.close();
    }
  }, 120_000);
});
