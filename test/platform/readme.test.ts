import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../platform/config.ts';

describe('README', () => {
  it('documents every configuration variable the schema accepts', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const missing = Object.keys(configSchema.shape).filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
