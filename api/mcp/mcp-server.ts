import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerFrameworkResources, type FrameworkPage } from './framework-resources.ts';
import type { RestCall } from './rest-client.ts';
import { toolResult } from './tool-result.ts';
import { TOOLS } from './tools.ts';

/** The name and version MCP clients see at initialisation. */
export const MCP_SERVER_INFO = { name: 'faithscreen', version: '0.1.0' };

const INSTRUCTIONS =
  'faithscreen screens listed stocks and funds against faith-based frameworks (AAOIFI and four other Shariah ' +
  'methodologies, Christian and Jewish ones). Find a ticker with search_universe, then screen_ticker for its verdicts ' +
  'and reasons, status_timeline for since when, purify_holding for the amount to purify, explain_disagreements for why ' +
  'two methodologies differ, zakat_holding and screen_portfolio for zakat and whole portfolios. Framework ids come from ' +
  "list_frameworks; the account's own screens (a base plus its exclusions) from list_custom_screens, asked for as " +
  'framework custom:<slug>; each framework page is a resource. A verdict of insufficient_data means the evidence is missing, ' +
  'not that the company passes. Every figure carries its filing and date: cite them.';

/** An MCP server whose every tool is one REST call made through `call` (with the caller's key). */
export function createMcpServer(call: RestCall, pages: readonly FrameworkPage[]): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      },
      async (args: Record<string, unknown>) => toolResult(await call(tool.request(args))),
    );
  }
  registerFrameworkResources(server, pages);
  return server;
}
