import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import { compactResult, snapshotRowFrom } from '../../activities/snapshot-rows.ts';
import { screenCompany, type ScreeningInput, type ScreeningResult } from '../../engine/index.ts';
import { createMetrics } from '../../api/metrics.ts';
import { openApiReads } from '../../reads/api-reads.ts';
import { migrateCatalog } from '../../warehouse/catalog.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import {
  expandResultJson,
  packResult,
  referencedTextIds,
  TEXTS_PER_CONTEXT,
  TextBook,
  UnknownTextError,
} from '../../warehouse/methodology-texts.ts';
import { loadQuotedTexts, MethodologyTexts } from '../../warehouse/methodology-texts-lake.ts';
import { loadScreeningInputs } from '../../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import type { SnapshotRow } from '../../warehouse/snapshot-schema.ts';
import { listen } from '../support/http.ts';
import { catalogQuery } from '../support/pipeline-env.ts';
import { makeTempDir } from '../support/temp-dir.ts';

// Response bodies are read as loosely typed JSON: the assertions compare them whole.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

const DATE = '2026-11-20';
const META = { source: 'nightly' as const, runId: 'texts', screenedAt: `${DATE}T02:00:00.000` };

function bookLookup(book: TextBook): (id: string) => string | undefined {
  const texts = new Map(book.rows.map((r) => [r.text_id, JSON.stringify(r.text)]));
  return (id) => texts.get(id);
}

describe('methodology texts stored once, referenced from result_json', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let inputs: ScreeningInput[];

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-texts-');
    await ingestSource({ source: 'sample', scale: 0.002, dataDir: temp.dir, asOf: DATE, markets: ['us'], concurrency: 2 });
    inputs = (await withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, temp.dir, { market: 'us', date: DATE, kind: 'stock' }))).slice(
      0,
      40,
    );
  }, 120_000);
  afterAll(() => temp?.cleanup());

  it('when a full or a backfill result is packed, then expanding its JSON gives the engine JSON byte for byte, and it is smaller', () => {
    const book = new TextBook();
    let full = 0;
    let packed = 0;
    for (const input of inputs) {
      const result = screenCompany(input);
      for (const variant of [result, compactResult(result)]) {
        const stored = JSON.stringify(packResult(variant, book));
        const original = JSON.stringify(variant);
        expect(expandResultJson(stored, bookLookup(book))).toBe(original);
        full += original.length;
        packed += stored.length;
      }
      // The engine's own result is untouched.
      expect(result.frameworks.shariah_aaoifi?.reasons.every((r) => !r.message.startsWith('\u0000'))).toBe(true);
    }
    expect(packed / full).toBeLessThan(0.75);
    // Each distinct text is one row of the book, however many results used it.
    expect(book.rows.length).toBeLessThan(inputs.length * 40);
    expect(new Set(book.rows.map((r) => `${r.methodology_version}|${r.code}|${r.field}|${r.text_id}`)).size).toBe(book.rows.length);
    const perContext = new Map<string, number>();
    for (const r of book.rows)
      perContext.set(
        `${r.methodology_version}|${r.code}|${r.field}`,
        (perContext.get(`${r.methodology_version}|${r.code}|${r.field}`) ?? 0) + 1,
      );
    expect(Math.max(...perContext.values())).toBeLessThanOrEqual(TEXTS_PER_CONTEXT);
  });

  it('when a context meets more distinct texts than it may reference (texts carrying figures), then the rest stay inline and the book stays bounded', () => {
    const book = new TextBook();
    const stored = Array.from({ length: 40 }, (_, i) =>
      book.reference('1.0.0', 'aaoifi-ss21', 'shariah_aaoifi.business.alcohol', 'message', `Alcohol is ${i}.00% of revenue.`),
    );
    expect(stored.filter((s) => s.startsWith('\u0000'))).toHaveLength(TEXTS_PER_CONTEXT);
    expect(stored.slice(TEXTS_PER_CONTEXT)).toEqual(
      Array.from({ length: 40 - TEXTS_PER_CONTEXT }, (_, i) => `Alcohol is ${i + TEXTS_PER_CONTEXT}.00% of revenue.`),
    );
    expect(book.rows).toHaveLength(TEXTS_PER_CONTEXT);
    // A known text is still referenced; another context has its own allowance.
    expect(book.reference('1.0.0', 'aaoifi-ss21', 'shariah_aaoifi.business.alcohol', 'message', 'Alcohol is 0.00% of revenue.')).toBe(
      stored[0],
    );
    expect(book.reference('1.0.0', 'aaoifi-ss21', 'shariah_aaoifi.business.gambling', 'message', 'Gambling is 1.00% of revenue.')).toMatch(
      /^\u0000[0-9a-f]{12}$/,
    );
  });

  it('when a stored result references a text the reader does not know, then expansion fails naming it rather than serve a hole', () => {
    const stored = JSON.stringify(packResult(screenCompany(inputs[0]!), new TextBook()));
    const [first] = referencedTextIds(stored);
    expect(() => expandResultJson(stored, () => undefined)).toThrow(UnknownTextError);
    expect(() => expandResultJson(stored, () => undefined)).toThrow(new RegExp(`methodology text ${first}`));
  });

  it('when snapshots are written, then the texts are published first and the catalog’s snapshots view gives back the full result_json', async () => {
    const results = inputs.slice(0, 10).map((input) => ({ input, result: screenCompany(input) }));
    const rows = results.map(({ input, result }) => snapshotRowFrom(input, result, META));
    // An older lake's row (texts inline) beside them reads unchanged.
    const oldInput = inputs[10]!;
    const oldResult = screenCompany(oldInput);
    rows.push({ ...snapshotRowFrom(oldInput, oldResult, META), result_json: JSON.stringify(oldResult) });
    await writeSnapshots(temp.dir, rows, { fileStem: 'texts-view' });
    const textFiles = await readdir(path.join(lakeRoot(temp.dir), 'methodology_texts'), { recursive: true });
    expect(textFiles.filter((f) => f.endsWith('.parquet')).length).toBeGreaterThanOrEqual(1);
    await migrateCatalog(temp.dir);

    const viewed = await catalogQuery(temp.dir, `SELECT ticker, result_json FROM snapshots WHERE run_id = 'texts' ORDER BY ticker`);
    const expected = new Map([
      ...results.map(({ result }) => [result.ticker, JSON.stringify(result)] as const),
      [oldResult.ticker, JSON.stringify(oldResult)],
    ]);
    expect(viewed.map((r) => r.ticker)).toEqual([...expected.keys()].sort());
    for (const row of viewed) expect(row.result_json).toBe(expected.get(String(row.ticker)));
    const stored = await catalogQuery(
      temp.dir,
      `SELECT sum(length(result_json))::BIGINT AS n FROM stored_snapshots WHERE run_id = 'texts'`,
    );
    const expanded = await catalogQuery(temp.dir, `SELECT sum(length(result_json))::BIGINT AS n FROM snapshots WHERE run_id = 'texts'`);
    expect(Number(stored[0]!.n)).toBeLessThan(Number(expanded[0]!.n) * 0.75);
    const texts = await catalogQuery(
      temp.dir,
      `SELECT count(*)::INT AS n, count(DISTINCT engine_version)::INT AS engines FROM methodology_texts WHERE field = 'source'`,
    );
    expect(texts[0]).toMatchObject({ engines: 1 });
    expect(Number(texts[0]!.n)).toBeGreaterThan(10);
  }, 60_000);

  it('when a snapshot references a text missing from the lake, then the snapshots view query fails naming the text and the API reader refuses it too', async () => {
    const row: SnapshotRow = { ...snapshotRowFrom(inputs[11]!, screenCompany(inputs[11]!), { ...META, runId: 'orphan' }) };
    row.result_json = row.result_json.replace(/\\u0000[0-9a-f]{12}/, '\\u0000ffffffffffff');
    await writeSnapshots(temp.dir, [row], { fileStem: 'texts-orphan' });
    await migrateCatalog(temp.dir);
    await expect(catalogQuery(temp.dir, `SELECT result_json FROM snapshots WHERE run_id = 'orphan'`)).rejects.toThrow(
      /methodology text ffffffffffff/,
    );
    const reader = new MethodologyTexts(() => withDuckDB(':memory:', {}, (c) => loadQuotedTexts(c, temp.dir)));
    await expect(reader.expandAll([row.result_json])).rejects.toThrow(UnknownTextError);
    // The lake's other texts were loaded on the way: a known reference expands.
    expect(reader.size).toBeGreaterThan(0);
  }, 60_000);

  it('when the same snapshots are stored with texts inline (before) and as references (after), then the API answers deep-equal reports', async () => {
    const before = await makeTempDir('faithscreen-texts-before-');
    try {
      const picked = inputs.slice(20, 30);
      const results = picked.map((input) => ({ input, result: screenCompany(input) }));
      // Both lakes carry the same universe; only the snapshots' storage differs.
      await ingestSource({ source: 'sample', scale: 0.002, dataDir: before.dir, asOf: DATE, markets: ['us'], concurrency: 2 });
      await writeSnapshots(
        before.dir,
        results.map(({ input, result }) => ({ ...snapshotRowFrom(input, result, META), result_json: JSON.stringify(result) })),
        { fileStem: 'before' },
      );
      await writeSnapshots(
        temp.dir,
        results.map(({ input, result }) => snapshotRowFrom(input, result, META)),
        { fileStem: 'after' },
      );
      const [a, b] = await Promise.all([serveReports(before.dir), serveReports(temp.dir)]);
      try {
        for (const { result } of results) {
          const report = async (api: { url: string }): Promise<Json> =>
            (await fetch(`${api.url}/api/screen/us/${result.ticker}`)).json() as Promise<Json>;
          const [was, is] = await Promise.all([report(a), report(b)]);
          expect(is).toEqual(was);
          expect(is.report.shariah_aaoifi.reasons.length).toBeGreaterThan(0);
          expect(JSON.stringify(is.report)).not.toContain('\\u0000');
        }
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    } finally {
      await before.cleanup();
    }
  }, 120_000);

  it('loads every text of the lake JSON-quoted, as the API puts them back', async () => {
    const quoted = await withDuckDB(':memory:', {}, (c) => loadQuotedTexts(c, temp.dir));
    const sample = [...quoted.values()].slice(0, 5);
    for (const text of sample) expect(typeof JSON.parse(text)).toBe('string');
    const result: ScreeningResult = screenCompany(inputs[0]!);
    expect(quoted.get(referencedTextIds(JSON.stringify(packResult(result)))[0]!)).toBeDefined();
  });
});

async function serveReports(dataDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const reads = await openApiReads({ dataDir, followIntervalMs: 0 });
  const app = createApp({
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(),
    readiness: {},
    screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
  });
  const server = await listen(app);
  return {
    url: server.url,
    async close() {
      await server.close();
      await reads.close();
    },
  };
}
