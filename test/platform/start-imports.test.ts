import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Packages every start of the CLI loaded before they became imports of the commands and routes that use them (docs/operations.md). */
const LOADED_ON_FIRST_USE = ['@modelcontextprotocol/sdk', 'apache-arrow', '@temporalio/worker'];

/** Static imports and re-exports that load code (not `import type`), by specifier, in either quote style. */
function staticImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)[\s\S]*?\sfrom\s+(['"])([^'"]+)\1/gm)) found.push(match[2]!);
  for (const match of source.matchAll(/^import\s+(['"])([^'"]+)\1/gm)) found.push(match[2]!);
  return found;
}

/** Every package the file at `entry` loads through static imports, and the project file that imports each. */
function packagesLoadedBy(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [path.join(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        // A relative import the walk cannot follow would shrink what it checks without a word.
        if (!/\.(ts|mjs|js)$/.test(specifier))
          throw new Error(`${path.relative(ROOT, file)} imports '${specifier}', which this walk cannot follow`);
        queue.push(path.resolve(path.dirname(file), specifier));
      } else if (!specifier.startsWith('node:') && !packages.has(specifier)) packages.set(specifier, path.relative(ROOT, file));
    }
  }
  return packages;
}

describe('what a start of the CLI loads', () => {
  it('when the CLI starts (the API role among its commands), then the packages only some commands and routes use are not loaded', () => {
    const loaded = packagesLoadedBy('cli/main.ts');
    // The walk itself sees the packages every command needs.
    expect([...loaded.keys()]).toEqual(expect.arrayContaining(['commander', 'koa', '@duckdb/node-api']));
    const early = [...loaded].filter(([specifier]) =>
      LOADED_ON_FIRST_USE.some((name) => specifier === name || specifier.startsWith(`${name}/`)),
    );
    expect(early.map(([specifier, by]) => `${specifier} (imported by ${by})`)).toEqual([]);
  });
});
