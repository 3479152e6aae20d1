import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { latestCatalogVersion, migrateCatalog } from '../../warehouse/catalog.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { catalogPath } from '../../warehouse/lake-paths.ts';
import { MIGRATIONS, type Migration } from '../../warehouse/migrations/index.ts';
import { makeTempDir } from '../support/temp-dir.ts';

describe('migrateCatalog', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('when the catalog is new, then it is created with every migration applied in order', async () => {
    const status = await migrateCatalog(temp.dir);
    expect(status.fromVersion).toBe(0);
    expect(status.toVersion).toBe(latestCatalogVersion());
    expect(status.applied).toEqual(MIGRATIONS.map((m) => `${m.version}-${m.name}`));
    const versions = await withDuckDB(catalogPath(temp.dir), { readOnly: true }, async (c) =>
      (await c.runAndReadAll('SELECT version FROM schema_migrations ORDER BY version')).getRowObjectsJson().map((r) => Number(r.version)),
    );
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('when the catalog is current, then a second run applies nothing', async () => {
    await migrateCatalog(temp.dir);
    const again = await migrateCatalog(temp.dir);
    expect(again.applied).toEqual([]);
    expect(again.fromVersion).toBe(again.toVersion);
  });

  it('when a researcher holds the catalog open read-only, then a no-op migration still succeeds', async () => {
    await migrateCatalog(temp.dir);
    await withDuckDB(catalogPath(temp.dir), { readOnly: true }, async () => {
      const status = await migrateCatalog(temp.dir);
      expect(status.applied).toEqual([]);
    });
  });

  it('when a migration fails, then it is rolled back, not recorded, and the error names it', async () => {
    const broken: Migration = { version: 999, name: 'broken', statements: () => ['CREATE TABLE ok_table (x INT)', 'SELEC nonsense'] };
    await expect(migrateCatalog(temp.dir, [...MIGRATIONS, broken])).rejects.toThrow(/catalog migration 999 \(broken\) failed/);
    const tables = await withDuckDB(catalogPath(temp.dir), { readOnly: true }, async (c) =>
      (await c.runAndReadAll("SELECT table_name FROM information_schema.tables WHERE table_name = 'ok_table'")).getRowObjectsJson(),
    );
    expect(tables).toEqual([]);
    const status = await migrateCatalog(temp.dir);
    expect(status.applied).toEqual([]);
  });
});
