import { execFile } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../access/administration.ts';
import { TOOLS } from '../../api/mcp/tools.ts';
import { keyFor } from '../support/access.ts';
import { freePort } from '../support/http.ts';
import { callTool, serveMcpApi, toolCases, without, type ServedMcpApi } from '../api/support/mcp-fixture.ts';

const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;

describe('faithscreen mcp: the MCP server over stdio, spawned and driven by the SDK client, against a running API', () => {
  let api: ServedMcpApi;
  const open: Client[] = [];

  /** Spawns `faithscreen mcp` with `apiKey` in FAITHSCREEN_API_KEY (unset when null) and connects; its stderr is collected. */
  const spawnMcp = async (apiKey: string | null = api.key.key, apiUrl = api.url) => {
    const env: Record<string, string> = { FAITHSCREEN_API_URL: apiUrl };
    if (apiKey !== null) env.FAITHSCREEN_API_KEY = apiKey;
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env, stderr: 'pipe' });
    const stderr: string[] = [];
    (transport.stderr as PassThrough | null)?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
    await client.connect(transport);
    open.push(client);
    return { client, stderr };
  };

  beforeAll(async () => {
    api = await serveMcpApi();
  }, 180_000);
  afterAll(async () => {
    await Promise.all(open.map((client) => client.close()));
    await api?.close();
  });

  it('when spawned, then it lists every tool and the framework pages, and each tool answers what its REST call answers for the same units', async () => {
    const { client } = await spawnMcp();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('faithscreen://frameworks/README');
    for (const call of toolCases(api)) {
      const before = await api.used();
      const tool = await callTool(client, call.tool, call.args);
      const toolUnits = (await api.used()) - before;
      const rest = await api.rest(call.path, call.body);
      expect(tool.isError, `${call.tool}: ${tool.text}`).toBe(false);
      expect(without(tool.structured, call.volatile), call.tool).toEqual(without(rest.body, call.volatile));
      expect({ tool: call.tool, toolUnits }).toEqual({ tool: call.tool, toolUnits: call.cost });
    }
  }, 60_000);

  it('when the REST call is refused, then the tool error carries the REST detail', async () => {
    const { client } = await spawnMcp();
    const rest = await api.rest('/api/screen/us/ZZZZZQ/timeline');
    expect(rest.status).toBe(404);
    const tool = await callTool(client, 'status_timeline', { market: 'us', ticker: 'ZZZZZQ' });
    expect(tool).toMatchObject({ isError: true, text: `faithscreen API answered 404: ${rest.body.detail}` });
  });

  it('when the key is revoked or missing, then paid tools answer 401 with the detail, a public tool still answers, and the key never reaches stderr', async () => {
    const revoked = await keyFor(api.access, 'pro');
    await revokeKey(api.access.store, revoked.keyId);
    const withRevoked = await spawnMcp(revoked.key);
    const refused = await callTool(withRevoked.client, 'screen_ticker', { market: 'us', ticker: api.t.fresh[0] });
    expect(refused).toMatchObject({ isError: true, structured: { status: 401 } });
    expect(refused.text).toContain('invalid API key');
    expect(withRevoked.stderr.join('')).toContain(`key ${revoked.keyId}`);
    expect(withRevoked.stderr.join('')).not.toContain(revoked.key);

    const keyless = await spawnMcp(null);
    expect(await callTool(keyless.client, 'purify_holding', toolCases(api).find((c) => c.tool === 'purify_holding')!.args)).toMatchObject({
      isError: true,
      structured: { status: 401, detail: expect.stringContaining('missing API key') },
    });
    expect((await callTool(keyless.client, 'search_universe', { q: api.t.fresh[0] })).isError).toBe(false);
  }, 60_000);

  it('when nothing answers at the API URL, then a tool error names the URL and the cause', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const { client } = await spawnMcp(api.key.key, nowhere);
    const tool = await callTool(client, 'search_universe', { q: 'A' });
    expect(tool.isError).toBe(true);
    expect(tool.text).toContain(`the faithscreen API at ${nowhere} did not answer (`);
    expect(tool.text).toMatch(/ECONNREFUSED/);
  });

  it('when the API URL is not an http URL, then it exits 2 naming the setting', async () => {
    const outcome = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, 'mcp', '--api-url', 'ftp://example.test'], (error, _stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stderr }),
      );
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("--api-url / FAITHSCREEN_API_URL: 'ftp://example.test' must be an http or https URL");
  });
});
