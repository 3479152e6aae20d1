import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadFrameworkPages } from './framework-resources.ts';
import { createMcpServer } from './mcp-server.ts';
import { restClient } from './rest-client.ts';

export interface StdioMcpOptions {
  /** The faithscreen API every tool call goes to. */
  apiUrl: string;
  /** The caller's API key (null: public tools only; the others answer 401 with its detail). */
  apiKey: string | null;
}

/**
 * Serves the MCP server over this process's stdin and stdout until stdin closes. stdout carries
 * only the protocol, so nothing else may write to it.
 */
export async function serveMcpOverStdio(options: StdioMcpOptions): Promise<void> {
  const server = createMcpServer(restClient({ baseUrl: options.apiUrl, apiKey: options.apiKey }), await loadFrameworkPages());
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  process.stdin.once('end', () => void server.close());
  await closed;
}
