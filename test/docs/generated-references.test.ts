/**
 * The generated references of docs/reference/ match what their sources produce now: change the CLI, the
 * configuration schema or the OpenAPI document and this fails until `npm run docs:generate` is run.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../platform/config.ts';
import { CONFIG_NOTES } from '../../scripts/docs/config-notes.ts';
import { acceptedValues } from '../../scripts/docs/config-reference.ts';
import { GENERATED_PAGES } from '../../scripts/docs/generated-pages.ts';

const read = (path: string): Promise<string> => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('generated references', () => {
  it.each(GENERATED_PAGES.map((page) => [page.path, page]))('%s is what its generator writes now', async (_path, page) => {
    expect(await read(page.path)).toBe(page.render());
  });

  it('describes every configuration variable the schema accepts, and none it does not', () => {
    const variables = Object.keys(configSchema.shape);
    expect(variables.filter((name) => !CONFIG_NOTES[name])).toEqual([]);
    expect(Object.keys(CONFIG_NOTES).filter((name) => !variables.includes(name))).toEqual([]);
  });

  it('puts every command of the CLI and every operation of the OpenAPI document on its page', async () => {
    const cli = await read('docs/reference/cli.md');
    for (const command of ['start', 'backfill', 'keys create', 'state export', 'fetch edgar', 'webhooks delete'])
      expect(cli).toContain(`## \`faithscreen ${command}\``);
    const api = await read('docs/reference/api.md');
    expect(api).toContain('## `POST /api/screen/batch`');
    expect(api).toMatch(/## `GET \/api\/screen\/\{market\}\/\{ticker\}`\n/);
  });
});

describe('accepted values in words', () => {
  it('names ranges, enums, URLs and patterns', () => {
    expect(acceptedValues({ type: 'integer', minimum: 1, maximum: 10 })).toBe('whole number 1–10');
    expect(acceptedValues({ type: 'number', exclusiveMinimum: 0, maximum: 1 })).toBe('number > 0, ≤ 1');
    expect(acceptedValues({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER })).toBe('whole number ≥ 0');
    expect(acceptedValues({ enum: ['a', 'b'] })).toBe('`a`, `b`');
    expect(acceptedValues({ type: 'string', format: 'uri' })).toBe('a URL');
    expect(acceptedValues({ type: 'string', pattern: '^x$' })).toBe('text matching `^x$`');
  });
});
