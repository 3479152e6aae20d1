import pino from 'pino';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AccessSetup } from '../../../access/open-access.ts';
import { createApp } from '../../../api/app.ts';
import { createMetrics } from '../../../api/metrics.ts';
import { unavailableRefresher } from '../../../api/refresher.ts';
import { openServiceDb, type ServiceDb } from '../../../service-state/db.ts';
import { openApiReads } from '../../../reads/api-reads.ts';
import { PurificationReads } from '../../../warehouse/purification-reads.ts';
import { keyFor, meterUsed, openTestAccess } from '../../support/access.ts';
import { listen } from '../../support/http.ts';
import { testServiceState } from '../../support/service-state.ts';
import { makeTempDir } from '../../support/temp-dir.ts';
import { buildLake, type FixtureTickers } from './lake-fixture.ts';

/** The fixture account's custom screen: AAOIFI, plus the second fresh ticker excluded. */
export const CUSTOM_SLUG = 'aaoifi-plus';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
export type Json = Record<string, any>;

/** The API an MCP test talks to: the sample lake, real access control, attestations and purification, on an ephemeral port. */
export interface ServedMcpApi {
  url: string;
  dataDir: string;
  t: FixtureTickers;
  access: AccessSetup;
  /** A live Pro key and its id, and a certificate minted with it. */
  key: { key: string; keyId: string };
  certId: string;
  /** GETs or POSTs a REST path with `apiKey` (the fixture's key by default); the JSON body and status. */
  rest(path: string, body?: unknown, apiKey?: string): Promise<{ status: number; body: Json }>;
  /** Units the key's window has committed (spare units returned first). */
  used(keyId?: string): Promise<number>;
  close(): Promise<void>;
}

export async function serveMcpApi(): Promise<ServedMcpApi> {
  const temp = await makeTempDir('faithscreen-mcp-');
  const t = await buildLake(temp.dir);
  const reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
  const purification = new PurificationReads(temp.dir);
  const db: ServiceDb = await openServiceDb(await testServiceState(temp.dir));
  const access = await openTestAccess(temp.dir);
  const app = createApp({
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(),
    readiness: {},
    screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
    attest: { db, dataDir: temp.dir, verifyRateLimit: { limit: 1_000, windowMs: 60_000 } },
    purification: { lake: purification },
    customScreens: { db },
    accessControl: access.middleware,
    baseUrl: 'http://127.0.0.1',
  });
  const server = await listen(app);
  const key = await keyFor(access, 'pro');
  const rest: ServedMcpApi['rest'] = async (path, body, apiKey = key.key) => {
    const response = await fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'X-API-Key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const screen = { slug: CUSTOM_SLUG, base: 'shariah_aaoifi', exclude_tickers: [`us/${t.fresh[1]}`], effective_from: '2019-01-01' };
  const created = await rest('/api/screens', screen);
  if (created.status !== 201) throw new Error(`creating a custom screen answered ${created.status}: ${JSON.stringify(created.body)}`);
  const minted = await rest(`/api/attest/us/${t.fresh[0]}?standard=shariah_aaoifi`, {});
  if (minted.status !== 200) throw new Error(`minting a certificate answered ${minted.status}: ${JSON.stringify(minted.body)}`);
  return {
    url: server.url,
    dataDir: temp.dir,
    t,
    access,
    key,
    certId: minted.body.cert_id as string,
    rest,
    async used(keyId = key.keyId) {
      await access.meter.returnSpare();
      return meterUsed(access, keyId);
    },
    async close() {
      await server.close();
      await access.close();
      await reads.close();
      await purification.close();
      await db.close();
      await temp.cleanup();
    },
  };
}

/** A tool's answer: its structured content, and its text (the detail of an error). */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { isError: result.isError === true, text, structured: (result.structuredContent ?? {}) as Json };
}

/** One tool call and the REST call it stands for, with the units both cost. */
export interface ToolCase {
  tool: string;
  args: Record<string, unknown>;
  path: string;
  body?: unknown;
  cost: number;
  /** Fields that differ between two calls by design (the time of a verification). */
  volatile?: string[];
}

/** A call of every tool on the fixture's data, each with the REST call it makes. */
export function toolCases(api: ServedMcpApi): ToolCase[] {
  const ticker = api.t.fresh[0]!;
  const history = api.t.withHistory;
  const lots = [{ shares: 10, bought_on: '2020-12-31', sold_on: '2021-06-30' }];
  const portfolio = [
    { ticker, shares: 10 },
    { ticker: api.t.fresh[1]!, shares: 5 },
  ];
  return [
    { tool: 'search_universe', args: { q: ticker, limit: 5 }, path: `/api/universe/search?q=${ticker}&limit=5`, cost: 0 },
    { tool: 'list_frameworks', args: {}, path: '/api/screen/frameworks', cost: 0 },
    { tool: 'list_markets', args: {}, path: '/api/markets', cost: 0 },
    { tool: 'list_custom_screens', args: {}, path: '/api/screens', cost: 0 },
    { tool: 'get_custom_screen', args: { slug: CUSTOM_SLUG }, path: `/api/screens/${CUSTOM_SLUG}`, cost: 0 },
    {
      tool: 'screen_ticker',
      args: { market: 'us', ticker: api.t.fresh[1], framework: `custom:${CUSTOM_SLUG}` },
      path: `/api/screen/us/${api.t.fresh[1]}?framework=custom:${CUSTOM_SLUG}`,
      cost: 1,
    },
    {
      tool: 'screen_ticker',
      args: { market: 'us', ticker: history, as_of: '2020-12-31', framework: `custom:${CUSTOM_SLUG}` },
      path: `/api/screen/us/${history}?as_of=2020-12-31&framework=custom:${CUSTOM_SLUG}`,
      cost: 2,
    },
    { tool: 'screen_ticker', args: { market: 'us', ticker }, path: `/api/screen/us/${ticker}`, cost: 1 },
    {
      tool: 'screen_ticker',
      args: { market: 'us', ticker: history, as_of: '2020-12-31', reasons: 'true' },
      path: `/api/screen/us/${history}?as_of=2020-12-31&reasons=true`,
      cost: 2,
    },
    {
      tool: 'compare_tickers',
      args: { tickers: `${ticker},${api.t.fresh[1]}` },
      path: `/api/screen/compare?tickers=${ticker},${api.t.fresh[1]}`,
      cost: 1,
    },
    { tool: 'explain_disagreements', args: { market: 'us', ticker }, path: `/api/screen/us/${ticker}/explain`, cost: 1 },
    {
      tool: 'explain_disagreements',
      args: { market: 'us', ticker: history, as_of: '2020-12-31' },
      path: `/api/screen/us/${history}/explain?as_of=2020-12-31`,
      cost: 2,
    },
    { tool: 'status_timeline', args: { market: 'us', ticker: history }, path: `/api/screen/us/${history}/timeline`, cost: 3 },
    {
      tool: 'purify_holding',
      args: { market: 'us', ticker: history, framework: 'shariah_aaoifi', lots },
      path: '/api/purification',
      body: { market: 'us', ticker: history, framework: 'shariah_aaoifi', lots },
      cost: 2,
    },
    {
      tool: 'zakat_holding',
      args: { market: 'us', ticker, shares: '120' },
      path: `/api/zakat/us/${ticker}?shares=120`,
      cost: 2,
    },
    {
      tool: 'screen_portfolio',
      args: { holdings: portfolio, frameworks: ['shariah_aaoifi'] },
      path: '/api/portfolio',
      body: { holdings: portfolio, frameworks: ['shariah_aaoifi'] },
      cost: 2,
    },
    {
      tool: 'verify_certificate',
      args: { cert_id: api.certId },
      path: `/api/attest/verify/${api.certId}`,
      cost: 0,
      volatile: ['checked_at'],
    },
  ];
}

/** `body` without the named top-level fields. */
export function without(body: Json, fields: readonly string[] = []): Json {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !fields.includes(name)));
}
