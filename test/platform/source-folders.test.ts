/**
 * One list of source folders (source-folders.json): every top-level folder with code is in it, and
 * the type-checker and the import checker both cover every folder it names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const require = createRequire(root);
const folders = require('./source-folders.json') as { layers: string[][]; tooling: string[] };
const sourceFolders = folders.layers.flat();
const NOT_SOURCE = new Set(['node_modules', 'data', 'scratch', 'coverage', 'bin']);

/** Top-level folders holding TypeScript or JavaScript modules at any depth. */
function foldersWithCode(): string[] {
  const hasCode = (dir: string): boolean =>
    readdirSync(new URL(`${dir}/`, root), { withFileTypes: true }).some((entry) =>
      entry.isDirectory() ? hasCode(`${dir}/${entry.name}`) : /\.(ts|mts|mjs)$/.test(entry.name),
    );
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !NOT_SOURCE.has(entry.name))
    .map((entry) => entry.name)
    .filter(hasCode);
}

describe('source folders', () => {
  it('lists every top-level folder with code, as a layer or as tooling', () => {
    const listed = new Set([...sourceFolders, ...folders.tooling]);
    expect(foldersWithCode().filter((name) => !listed.has(name))).toEqual([]);
  });

  it('type-checks every listed folder (tsconfig.json include)', () => {
    const tsconfig = JSON.parse(readFileSync(new URL('tsconfig.json', root), 'utf8')) as { include: string[] };
    const included = new Set(tsconfig.include);
    expect([...sourceFolders, ...folders.tooling].filter((name) => !included.has(name))).toEqual([]);
  });

  it('import-checks every source folder: the rules name it and lint:imports cruises the list', () => {
    const config = require('./.dependency-cruiser.cjs') as { forbidden: { from: { path?: string } }[] };
    const ruled = config.forbidden.map((rule) => rule.from.path ?? '').join(' ');
    expect(sourceFolders.filter((name) => !ruled.includes(name))).toEqual([]);
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['lint:imports']).toBe('node scripts/lint-imports.mjs');
    expect(readFileSync(new URL('scripts/lint-imports.mjs', root), 'utf8')).toContain('source-folders.json');
  });
});
