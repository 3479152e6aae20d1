import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The framework pages: how each framework decides (docs/frameworks/, one page per framework id plus the README). */
export const FRAMEWORK_DOCS_DIR = fileURLToPath(new URL('../../docs/frameworks/', import.meta.url));

const URI_PREFIX = 'faithscreen://frameworks/';

/** `faithscreen://frameworks/<page>` for `<page>.md` (`README` for the overview). */
export function frameworkResourceUri(page: string): string {
  return `${URI_PREFIX}${page}`;
}

/** The first heading of a page, as its resource title. */
function titleOf(text: string, page: string): string {
  return /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? page;
}

export interface FrameworkPage {
  page: string;
  text: string;
}

/** Registers each framework page as a markdown resource. */
export function registerFrameworkResources(server: McpServer, pages: readonly FrameworkPage[]): void {
  for (const { page, text } of pages) {
    const uri = frameworkResourceUri(page);
    const description =
      page === 'README'
        ? 'How the engine decides: result shape, statuses, proxies and estimates, shared rules of every framework'
        : `${titleOf(text, page)}: its source, rules and thresholds, what is established and what is modelled`;
    server.registerResource(`framework-${page}`, uri, { title: titleOf(text, page), description, mimeType: 'text/markdown' }, () => ({
      contents: [{ uri, mimeType: 'text/markdown', text }],
    }));
  }
}

/**
 * The framework pages, read once by the caller: they change only with a release. A missing
 * folder (an image built without docs) gives no pages, so the server still offers its tools.
 */
export async function loadFrameworkPages(dir = FRAMEWORK_DOCS_DIR): Promise<FrameworkPage[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(names.map(async (name) => ({ page: name.slice(0, -3), text: await readFile(`${dir}/${name}`, 'utf8') })));
}
