import type { Command } from 'commander';
import { claimedKeyId } from '../../access/api-key-format.ts';
import { ConfigError } from '../../platform/config.ts';

/** Where the API is when neither --api-url nor FAITHSCREEN_API_URL says: a local `faithscreen start` on its default port. */
export const DEFAULT_API_URL = 'http://127.0.0.1:8080';

/** The API's base URL, or a ConfigError naming what is wrong with it. */
function checkApiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError([`--api-url / FAITHSCREEN_API_URL: '${value}' is not a URL; e.g. ${DEFAULT_API_URL}`]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError([`--api-url / FAITHSCREEN_API_URL: '${value}' must be an http or https URL`]);
  return value.replace(/\/$/, '');
}

/**
 * `mcp`: the MCP server over stdio for assistants (docs/mcp.md). It is a client of a running
 * API, so every tool call is authenticated, scoped and charged by the API itself; the key comes
 * from the environment only, never an argument (which `ps` would show).
 */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'serve the MCP tools over stdio: each tool calls the API at --api-url (or FAITHSCREEN_API_URL) with the key in FAITHSCREEN_API_KEY',
    )
    .option('--api-url <url>', `the faithscreen API's base URL (default: FAITHSCREEN_API_URL, else ${DEFAULT_API_URL})`)
    .action(async (options: { apiUrl?: string }) => {
      const apiUrl = checkApiUrl(options.apiUrl ?? process.env.FAITHSCREEN_API_URL ?? DEFAULT_API_URL);
      const apiKey = process.env.FAITHSCREEN_API_KEY?.trim() || null;
      // stderr only: stdout is the protocol. The key's public id, never the key.
      const keyId = apiKey === null ? 'none (public tools only)' : (claimedKeyId(apiKey) ?? 'not a faithscreen key');
      // Loaded by this command only: every other command (the API's start among them) skips the MCP SDK.
      const { serveMcpOverStdio } = await import('../../api/mcp/stdio.ts');
      process.stderr.write(`faithscreen mcp: serving over stdio; API ${apiUrl}; key ${keyId}\n`);
      await serveMcpOverStdio({ apiUrl, apiKey });
    });
}
