import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../platform/config.ts';

const read = (path: string): Promise<string> => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('README', () => {
  it('states the two commands CI and newcomers run', async () => {
    const readme = await read('README.md');
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm install && npm test');
  });

  it('links only to docs pages that exist', async () => {
    const readme = await read('README.md');
    const targets = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((match) => match[1] ?? '');
    expect(targets.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const target of targets) await read(target).catch(() => missing.push(target));
    expect(missing).toEqual([]);
  });
});

describe('configuration reference', () => {
  it('documents every configuration variable the schema accepts', async () => {
    const page = await read('docs/reference/configuration.md');
    const missing = Object.keys(configSchema.shape).filter((name) => !page.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
