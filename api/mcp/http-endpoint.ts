import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FrameworkPage } from './framework-resources.ts';
import { createMcpServer } from './mcp-server.ts';
import type { RestCall } from './rest-client.ts';

/**
 * Answers one MCP message posted to `/mcp`. The endpoint is stateless: each POST gets a server
 * and transport of its own, closed when the response is, so any API replica can answer any
 * message and nothing outlives the request. Answers are plain JSON (no event stream): every
 * tool answers once, when its REST call has.
 */
export async function answerMcpPost(
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody: unknown,
  call: RestCall,
  pages: readonly FrameworkPage[],
): Promise<void> {
  const server = createMcpServer(call, pages);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const finished = new Promise<void>((resolve) => res.once('close', resolve));
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, parsedBody);
    await finished;
  } finally {
    await transport.close();
    await server.close();
  }
}

/**
 * The base URL this server answered on, as seen from itself: its tools' REST calls go back to
 * the same listener (the same routes, access control and meter). An IPv4-mapped address is
 * given as IPv4; an IPv6 one in brackets.
 */
export function loopbackBaseUrl(req: IncomingMessage): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  const host = address.includes(':') ? `[${address.replace(/%.*$/, '')}]` : address;
  return `http://${host}:${req.socket.localPort}`;
}
