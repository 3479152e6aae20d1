import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RELATIVE_IMPORT = /(?:from\s+|import\s*\(\s*|new URL\(\s*)'(\.{1,2}\/[^']+)'/g;

/** Every repository file the CLI entry reaches through relative imports (and `new URL('./…', import.meta.url)`). */
async function reachableFiles(entry: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = await readFile(path.join(ROOT, file), 'utf8');
    for (const [, target] of source.matchAll(RELATIVE_IMPORT)) {
      const resolved = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), target!));
      if (/\.(ts|mjs|js)$/.test(resolved)) queue.push(resolved);
    }
  }
  return seen;
}

describe('Dockerfile', () => {
  it('copies every directory the CLI imports at run time into the image', async () => {
    const dockerfile = await readFile(path.join(ROOT, 'Dockerfile'), 'utf8');
    const copied = new Set([...dockerfile.matchAll(/^COPY\s+(\S+)\s+\.\/\S*$/gm)].map(([, dir]) => dir));
    const needed = new Set([...(await reachableFiles('bin/faithscreen.js'))].map((file) => file.split(path.sep)[0]!));

    expect(needed).toContain('cli');
    expect(needed).toContain('activities');
    expect([...needed].filter((dir) => !copied.has(dir)).sort()).toEqual([]);
  });

  it('installs dependencies where native ones can compile and runs on the slim image with them', async () => {
    const dockerfile = await readFile(path.join(ROOT, 'Dockerfile'), 'utf8');
    const stages = [...dockerfile.matchAll(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/gm)].map(([, image, name]) => ({ image, name }));
    expect(stages).toEqual([
      { image: 'node:20-bookworm', name: 'dependencies' },
      { image: 'node:20-bookworm-slim', name: undefined },
    ]);
    expect(dockerfile).toMatch(/^COPY --from=dependencies \/app\/node_modules \.\/node_modules$/m);
  });
});
