import { readdir, readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { revokeKey } from '../../access/administration.ts';
import { FRAMEWORK_DOCS_DIR } from '../../api/mcp/framework-resources.ts';
import { screenPathSchema, screenQuerySchema } from '../../api/schemas/requests.ts';
import { keyFor } from '../support/access.ts';
import { listen } from '../support/http.ts';
import { createTestApi } from './support/lake-fixture.ts';
import { CUSTOM_SLUG, callTool, serveMcpApi, toolCases, without, type Json, type ServedMcpApi } from './support/mcp-fixture.ts';

describe('POST /mcp: the MCP server over streamable HTTP, through the SDK client, against the running app', () => {
  let api: ServedMcpApi;
  const open: Client[] = [];

  /** An SDK client connected to `url`/mcp with `apiKey` in X-API-Key (none when null). */
  const connect = async (apiKey: string | null = api.key.key, url = api.url) => {
    const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
    const headers: Record<string, string> = apiKey === null ? {} : { 'X-API-Key': apiKey };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    api = await serveMcpApi();
  }, 180_000);
  afterAll(async () => {
    await Promise.all(open.map((client) => client.close()));
    await api?.close();
  });

  it('when a client lists the tools, then each has a description naming its REST call and cost and the route’s schema as input', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_universe',
      'list_frameworks',
      'list_markets',
      'list_custom_screens',
      'get_custom_screen',
      'screen_ticker',
      'compare_tickers',
      'explain_disagreements',
      'status_timeline',
      'purify_holding',
      'zakat_holding',
      'screen_portfolio',
      'verify_certificate',
    ]);
    const screen = tools.find((tool) => tool.name === 'screen_ticker')!;
    expect(screen.description).toContain('GET /api/screen/{market}/{ticker}');
    expect(screen.description).toContain('1 unit, 2 with as_of');
    expect(screen.description).toContain('Answers with ScreenResponse');
    // The same zod objects the route validates with, as JSON Schema.
    const routeSchema = z.toJSONSchema(screenPathSchema.extend(screenQuerySchema.shape), { io: 'input' }) as { properties: object };
    expect(Object.keys(screen.inputSchema.properties ?? {})).toEqual(Object.keys(routeSchema.properties));
    expect(screen.inputSchema.required).toEqual(['market', 'ticker']);
    expect(tools.find((tool) => tool.name === 'purify_holding')!.description).toContain('2 units per lot');
  });

  it('when a client reads the framework resources, then each framework page is served as markdown, word for word', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('faithscreen://frameworks/shariah_aaoifi');
    const pages = (await readdir(FRAMEWORK_DOCS_DIR)).filter((name) => name.endsWith('.md'));
    expect(resources.map((r) => r.uri).sort()).toEqual(pages.map((name) => `faithscreen://frameworks/${name.slice(0, -3)}`).sort());
    const page = await client.readResource({ uri: 'faithscreen://frameworks/shariah_aaoifi' });
    expect(page.contents[0]).toMatchObject({
      mimeType: 'text/markdown',
      text: await readFile(`${FRAMEWORK_DOCS_DIR}/shariah_aaoifi.md`, 'utf8'),
    });
  });

  it('when each tool is called, then it answers what its REST call answers and charges the same units', async () => {
    const client = await connect();
    for (const call of toolCases(api)) {
      const before = await api.used();
      const tool = await callTool(client, call.tool, call.args);
      const toolUnits = (await api.used()) - before;
      const rest = await api.rest(call.path, call.body);
      const restUnits = (await api.used()) - before - toolUnits;
      expect(tool.isError, `${call.tool}: ${tool.text}`).toBe(false);
      expect(rest.status, call.path).toBe(200);
      expect(without(tool.structured, call.volatile), call.tool).toEqual(without(rest.body, call.volatile));
      expect(JSON.parse(tool.text)).toEqual(tool.structured);
      expect({ tool: call.tool, toolUnits, restUnits }).toEqual({ tool: call.tool, toolUnits: call.cost, restUnits: call.cost });
    }
  });

  it('when the account’s custom screen is asked for, then screen_ticker answers it with the ticker it excludes non-compliant', async () => {
    const client = await connect();
    const { structured } = await callTool(client, 'list_custom_screens');
    expect(structured.screens.map((screen: Json) => screen.framework)).toEqual([`custom:${CUSTOM_SLUG}`]);
    const excluded = await callTool(client, 'screen_ticker', { market: 'us', ticker: api.t.fresh[1], framework: `custom:${CUSTOM_SLUG}` });
    expect(excluded.structured.report.frameworks_returned).toEqual([`custom:${CUSTOM_SLUG}`]);
    const verdict = excluded.structured.report[`custom:${CUSTOM_SLUG}`];
    expect(verdict.status).toBe('non_compliant');
    expect(verdict.reasons.map((reason: Json) => reason.message)).toContain(
      `custom:${CUSTOM_SLUG} v1: us/${api.t.fresh[1]} is on the screen's excluded list.`,
    );
    const other = await keyFor(api.access, 'pro');
    const elsewhere = await callTool(await connect(other.key), 'get_custom_screen', { slug: CUSTOM_SLUG });
    expect(elsewhere).toMatchObject({ isError: true, structured: { status: 404 } });
  });

  it('when the REST call is refused, then the tool error carries its status and detail, and costs nothing, as the REST call', async () => {
    const client = await connect();
    const before = await api.used();
    const unknown = await callTool(client, 'screen_ticker', { market: 'us', ticker: 'ZZZZZQ' });
    const rest = await api.rest('/api/screen/us/ZZZZZQ');
    expect(rest.status).toBe(404);
    expect(unknown).toMatchObject({ isError: true, structured: { status: 404, detail: rest.body.detail } });
    expect(unknown.text).toBe(`faithscreen API answered 404: ${rest.body.detail}`);
    const future = await callTool(client, 'screen_ticker', { market: 'us', ticker: api.t.fresh[0], as_of: '2999-01-01' });
    expect(future).toMatchObject({ isError: true, structured: { status: 400 } });
    expect(future.text).toMatch(/as_of/);
    expect(await api.used()).toBe(before);
  });

  it('when an argument breaks the route’s schema, then the tool error gives the schema’s message and no REST call is charged', async () => {
    const client = await connect();
    const before = await api.used();
    const malformed = await callTool(client, 'screen_ticker', { market: 'us', ticker: api.t.fresh[0], as_of: '2020/01/01' });
    expect(malformed.isError).toBe(true);
    expect(malformed.text).toContain('Input validation error');
    expect(malformed.text).toContain('expected a date YYYY-MM-DD');
    expect(await api.used()).toBe(before);
  });

  it('when the key is not provisioned for a framework, then the tool answers the 403 naming it', async () => {
    const scoped = await keyFor(api.access, 'pro', { frameworks: ['shariah_aaoifi'] });
    const client = await connect(scoped.key);
    const denied = await callTool(client, 'screen_ticker', { market: 'us', ticker: api.t.fresh[0], framework: 'catholic_usccb' });
    expect(denied).toMatchObject({ isError: true, structured: { status: 403 } });
    expect(denied.text).toContain('not provisioned for framework(s) catholic_usccb');
  });

  it('when the key is missing, unknown or revoked, then /mcp refuses it with 401 before any tool runs', async () => {
    await expect(connect(null)).rejects.toThrow(/401|missing API key/);
    await expect(connect('fs_live_notakey')).rejects.toThrow(/401|invalid API key/);
    const revoked = await keyFor(api.access, 'pro');
    await revokeKey(api.access.store, revoked.keyId);
    await expect(connect(revoked.key)).rejects.toThrow(/401|invalid API key/);
    const response = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'X-API-Key': revoked.key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: expect.stringContaining('invalid API key') });
  });

  it('when the quota is spent, then a tool call answers the 429 with its limits and a free tool still answers', async () => {
    const tight = await keyFor(api.access, 'pro', { dailyLimit: 1 });
    const client = await connect(tight.key);
    expect((await callTool(client, 'screen_ticker', { market: 'us', ticker: api.t.fresh[0] })).isError).toBe(false);
    const refused = await callTool(client, 'screen_ticker', { market: 'us', ticker: api.t.fresh[0] });
    expect(refused).toMatchObject({ isError: true, structured: { status: 429, detail: { message: expect.stringContaining('quota') } } });
    expect((await callTool(client, 'search_universe', { q: api.t.fresh[0] })).isError).toBe(false);
  });

  it('when the API runs without access control, then /mcp needs no key and the tools answer', async () => {
    const unguarded = await createTestApi(api.dataDir);
    const server = await listen(unguarded.app);
    try {
      const client = await connect(null, server.url);
      const screen = await callTool(client, 'screen_ticker', { market: 'us', ticker: api.t.fresh[0] });
      expect(screen.isError, screen.text).toBe(false);
      expect(screen.structured.ticker).toBe(api.t.fresh[0]);
    } finally {
      await server.close();
      await unguarded.reads.close();
      await unguarded.forensic.close();
      await unguarded.purification.close();
    }
  });

  it('when a client asks for an event stream or to end a session, then 405: the endpoint keeps no sessions', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${api.url}/mcp`, { method, headers: { 'X-API-Key': api.key.key } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
});
