import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiReads } from '../../warehouse/api-reads/api-reads.ts';
import type { PrerenderOption } from '../../warehouse/api-reads/api-reads-sidecar-build.ts';
import { buildSpreadLake, type SpreadLake } from '../api/support/spread-lake.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * Pre-rendered reports and a deploy in place (docs/serving.md, "Pre-rendered reports"): the version
 * a running API stamps on its sidecars is the one of the code it loaded at start, and a builder
 * thread that loads newer code from disk pre-renders nothing under the old version. A stand-in
 * pre-render module (its version a digest of its own source, as the real one's is of its
 * sources) plays the rendering code. SYNTHETIC lake.
 */
const moduleSource = (renderedBy: string) => `
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
export const loadedVersion = 'stand-in ' + createHash('sha256').update(readFileSync(new URL(import.meta.url))).digest('hex').slice(0, 16);
export default (json, snapshot) => ({
  report: Buffer.from(JSON.stringify({ rendered_by: ${JSON.stringify(renderedBy)}, snapshot_date: snapshot.snapshotDate })),
  companyName: '',
});
`;

describe('the pre-render version of a running API', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let lake: SpreadLake;

  beforeAll(async () => {
    temp = await makeTempDir();
    lake = await buildSpreadLake(temp.dir, { scale: 0.002, markets: ['us'], chunkSize: 100 });
  }, 180_000);
  afterAll(() => temp?.cleanup());

  /** The pre-rendered report of the lake's first stock, from sidecars built with `option`, in a sidecar folder of its own. */
  async function prerendered(option: PrerenderOption, folder: string): Promise<string | null> {
    const reads = await openApiReads({
      dataDir: temp.dir,
      followIntervalMs: 0,
      checkpoint: false,
      prerenderReports: option,
      sidecars: { dir: path.join(temp.dir, folder) },
    });
    try {
      await reads.whenSidecarsBuilt();
      expect(reads.stats().sidecarFiles).toBe(lake.files);
      const report = reads.prerenderedReport(reads.current('us', lake.stocks[0]!.ticker)!, '');
      return report === null ? null : (JSON.parse(report.toString('utf8')) as { rendered_by: string }).rendered_by;
    } finally {
      await reads.close();
    }
  }

  it('when the rendering source changes on disk after start, then the version stays the one loaded and no new bytes are stored under it; a restart pre-renders again', async () => {
    const modulePath = path.join(temp.dir, 'stand-in-prerender.mjs');
    await writeFile(modulePath, moduleSource('old code'));
    const url = pathToFileURL(modulePath).href;
    // The API's start: the version of the code as loaded (a query string: a load of its own).
    const atStart = ((await import(`${url}?start`)) as { loadedVersion: string }).loadedVersion;
    const option: PrerenderOption = { module: url, version: atStart };
    expect(await prerendered(option, 'before-pull')).toBe('old code');

    // A deploy in place: the rendering source changes under the running API.
    await writeFile(modulePath, moduleSource('new code'));
    expect(option.version).toBe(atStart);
    // Its builder threads load the new code: they pre-render nothing under the old version; those reports render on request.
    expect(await prerendered(option, 'after-pull')).toBeNull();

    // After a restart the version is the new code's, and the sidecars pre-render with it.
    const restarted = ((await import(`${url}?restart`)) as { loadedVersion: string }).loadedVersion;
    expect(restarted).not.toBe(atStart);
    expect(await prerendered({ module: url, version: restarted }, 'after-restart')).toBe('new code');
  }, 180_000);
});
