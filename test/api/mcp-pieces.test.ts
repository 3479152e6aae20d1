import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loopbackBaseUrl } from '../../api/mcp/http-endpoint.ts';
import { restUrl } from '../../api/mcp/rest-client.ts';
import { toolResult } from '../../api/mcp/tool-result.ts';
import { TOOLS } from '../../api/mcp/tools.ts';

const socketAt = (localAddress: string, localPort: number) => ({ socket: { localAddress, localPort } }) as unknown as IncomingMessage;

describe('the MCP server’s pieces', () => {
  it('when a REST error has a structured detail, then the tool error gives its message, then the rest as JSON', () => {
    const detail = { message: 'quota exhausted: this request costs 1 unit(s)', upgrade_url: 'https://x.test/up' };
    const result = toolResult({ status: 429, body: { detail } });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: `faithscreen API answered 429: ${detail.message} {"upgrade_url":"https://x.test/up"}` }],
      structuredContent: { status: 429, detail },
    });
  });

  it('when the answer is not JSON (a proxy’s page), then the tool error carries the text as it came', () => {
    const result = toolResult({ status: 502, body: '<html>Bad Gateway</html>' });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'faithscreen API answered 502: <html>Bad Gateway</html>' }]);
    const long = toolResult({ status: 502, body: 'x'.repeat(5_000) });
    expect(long.content).toEqual([{ type: 'text', text: `faithscreen API answered 502: ${'x'.repeat(2_000)}…` }]);
  });

  it('when a success answers a list, then it is text only (structured content must be an object)', () => {
    expect(toolResult({ status: 200, body: [1, 2] })).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
  });

  it('when the server listens on IPv4, IPv4-mapped IPv6 or IPv6, then the loopback URL is the address it answered on', () => {
    expect(loopbackBaseUrl(socketAt('127.0.0.1', 8080))).toBe('http://127.0.0.1:8080');
    expect(loopbackBaseUrl(socketAt('::ffff:10.0.0.5', 8080))).toBe('http://10.0.0.5:8080');
    expect(loopbackBaseUrl(socketAt('::1', 9000))).toBe('http://[::1]:9000');
    expect(loopbackBaseUrl(socketAt('fe80::1%eth0', 9000))).toBe('http://[fe80::1]:9000');
  });

  it('when a request has absent query values and a base URL with a path, then they are left out and the path kept', () => {
    const url = restUrl('https://api.test/v/', { method: 'GET', path: '/api/markets', query: { a: 'x y', b: undefined, n: 3 } });
    expect(url).toBe('https://api.test/api/markets?a=x+y&n=3');
    expect(restUrl('https://api.test/base', { method: 'GET', path: 'api/markets' })).toBe('https://api.test/base/api/markets');
  });

  it('when a tool’s ticker carries a dot or a slash, then the path segment is encoded, never a new path', () => {
    const screen = TOOLS.find((tool) => tool.name === 'screen_ticker')!;
    expect(screen.request({ market: 'us', ticker: 'BRK.B' }).path).toBe('/api/screen/us/BRK.B');
    expect(screen.request({ market: 'us', ticker: '../x' }).path).toBe('/api/screen/us/..%2Fx');
  });

  it('when docs/mcp.md lists the tools, then its table names every tool the server offers, in order', async () => {
    const page = await readFile(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
    const documented = [...page.matchAll(/^\| `([a-z_]+)` \|/gm)].map(([, name]) => name);
    expect(documented).toEqual(TOOLS.map((tool) => tool.name));
  });
});
