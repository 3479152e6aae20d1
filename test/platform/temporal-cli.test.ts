import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliCacheDir, parseGoVersion, provisionTemporalCli } from '../../platform/temporal-cli.ts';
import { makeTempDir } from '../support/temp-dir.ts';

async function fakeBinary(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'temporal');
  await writeFile(file, '#!/bin/sh\necho fake\n');
  await chmod(file, 0o755);
  return file;
}

describe('provisionTemporalCli', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('when TEMPORAL_CLI_PATH names an executable, then it wins over everything else', async () => {
    const explicit = await fakeBinary(path.join(temp.dir, 'explicit'));
    const onPath = await fakeBinary(path.join(temp.dir, 'bin'));
    const result = await provisionTemporalCli({ TEMPORAL_CLI_PATH: explicit, PATH: path.dirname(onPath) });
    expect(result).toMatchObject({ origin: 'env', path: explicit });
  });

  it('when TEMPORAL_CLI_PATH is not executable, then it fails naming the path', async () => {
    await expect(provisionTemporalCli({ TEMPORAL_CLI_PATH: path.join(temp.dir, 'missing') })).rejects.toThrow(
      /missing is not an executable/,
    );
  });

  it('when temporal is on PATH, then it is used before the cache', async () => {
    const onPath = await fakeBinary(path.join(temp.dir, 'bin'));
    await fakeBinary(cliCacheDir({ FAITHSCREEN_CACHE_DIR: temp.dir }));
    const result = await provisionTemporalCli({ PATH: path.dirname(onPath), FAITHSCREEN_CACHE_DIR: temp.dir });
    expect(result).toMatchObject({ origin: 'path', path: onPath });
  });

  it('when only a cached build exists, then it is reused without building', async () => {
    const cached = await fakeBinary(cliCacheDir({ FAITHSCREEN_CACHE_DIR: temp.dir }));
    const result = await provisionTemporalCli({ PATH: path.join(temp.dir, 'empty'), FAITHSCREEN_CACHE_DIR: temp.dir });
    expect(result).toMatchObject({ origin: 'cache', path: cached });
  });
});

describe('parseGoVersion', () => {
  it('reads major and minor from `go version` output', () => {
    expect(parseGoVersion('go version go1.26.8 linux/amd64')).toEqual([1, 26]);
    expect(parseGoVersion('go version go1.25 darwin/arm64')).toEqual([1, 25]);
  });

  it('returns null for output it cannot read', () => {
    expect(parseGoVersion('command not found')).toBeNull();
  });
});
