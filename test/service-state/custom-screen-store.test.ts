import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomScreenDefinition } from '../../engine/custom-screen/custom-screen-types.ts';
import { CustomScreenStore, type NewVersion } from '../../service-state/custom-screen-store.ts';
import { openServiceDb, type ServiceDb } from '../../service-state/db.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const DEFINITION: CustomScreenDefinition = {
  base: 'shariah_aaoifi',
  description: 'AAOIFI without coffee',
  activities: [{ activity: 'coffee', maxRevenueShare: 0, excludedInvolvements: [] }],
  excludedTickers: ['us/AAA'],
  allowedTickers: [],
  thresholds: { debt_to_market_cap_spot: 0.25 },
};

const version = (effectiveFrom: string, definition = DEFINITION): NewVersion => ({
  effectiveFrom,
  createdAt: `${effectiveFrom}T10:00:00.000Z`,
  createdByKey: 'key-1',
  definition,
});

describe('custom screens in the service state', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let db: ServiceDb;
  let store: CustomScreenStore;

  beforeEach(async () => {
    temp = await makeTempDir('faithscreen-custom-screens-');
    db = await openServiceDb(await testServiceState(temp.dir));
    for (const name of ['acme', 'other'])
      await db.run('INSERT INTO accounts (name, tier, lapsed_at, created_at) VALUES (?, ?, NULL, ?)', [
        name,
        'pro',
        '2026-11-01T00:00:00Z',
      ]);
    store = new CustomScreenStore(db);
  });
  afterEach(async () => {
    await db.close();
    await temp.cleanup();
  });

  it('when a screen is created and changed, then it reads back with each version, its date and definition, oldest first', async () => {
    expect(await store.create('acme', 'halal-plus', 'cs_1', version('2026-11-01'), 20)).toBe('created');
    const stricter = { ...DEFINITION, thresholds: { debt_to_market_cap_spot: 0.2 } };
    expect(await store.addVersion('acme', 'halal-plus', version('2026-11-20', stricter), 50)).toBe(2);
    const screen = await store.get('acme', 'halal-plus');
    expect(screen?.versions.map((v) => [v.version, v.effectiveFrom, v.definition.thresholds])).toEqual([
      [1, '2026-11-01', { debt_to_market_cap_spot: 0.25 }],
      [2, '2026-11-20', { debt_to_market_cap_spot: 0.2 }],
    ]);
    expect((await store.list('acme')).map((s) => [s.slug, s.versions.length])).toEqual([['halal-plus', 2]]);
  });

  it('when another account asks for a screen, then it is not found, and it cannot change or delete it', async () => {
    await store.create('acme', 'halal-plus', 'cs_1', version('2026-11-01'), 20);
    expect(await store.get('other', 'halal-plus')).toBeUndefined();
    expect(await store.list('other')).toEqual([]);
    expect(await store.addVersion('other', 'halal-plus', version('2026-11-02'), 50)).toBeUndefined();
    expect(await store.delete('other', 'halal-plus')).toBe(false);
    expect((await store.get('acme', 'halal-plus'))?.versions).toHaveLength(1);
  });

  it('when the slug is taken or the account is at its cap, then nothing is created', async () => {
    await store.create('acme', 'one', 'cs_1', version('2026-11-01'), 2);
    expect(await store.create('acme', 'one', 'cs_2', version('2026-11-01'), 2)).toBe('exists');
    await store.create('acme', 'two', 'cs_3', version('2026-11-01'), 2);
    expect(await store.create('acme', 'three', 'cs_4', version('2026-11-01'), 2)).toBe('limit');
    // The same slug in another account is its own screen.
    expect(await store.create('other', 'one', 'cs_5', version('2026-11-01'), 2)).toBe('created');
    expect((await store.list('acme')).map((s) => s.slug)).toEqual(['one', 'two']);
  });

  it('when a screen has its cap of versions, then no further version is added', async () => {
    await store.create('acme', 'one', 'cs_1', version('2026-11-01'), 20);
    expect(await store.addVersion('acme', 'one', version('2026-11-02'), 2)).toBe(2);
    expect(await store.addVersion('acme', 'one', version('2026-11-03'), 2)).toBe('limit');
  });

  it('when a screen is deleted, then it and its versions are gone and its slug can be used again', async () => {
    await store.create('acme', 'one', 'cs_1', version('2026-11-01'), 20);
    await store.addVersion('acme', 'one', version('2026-11-02'), 50);
    expect(await store.delete('acme', 'one')).toBe(true);
    expect(await store.get('acme', 'one')).toBeUndefined();
    expect(Number((await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM custom_screen_versions'))?.n)).toBe(0);
    expect(await store.create('acme', 'one', 'cs_2', version('2026-11-03'), 20)).toBe('created');
  });
});
