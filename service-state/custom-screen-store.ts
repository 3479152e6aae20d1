import type { CustomScreenDefinition } from '../engine/custom-screen/custom-screen-types.ts';
import type { ServiceDb } from './db.ts';

/** Custom screens and their versions in the service state (docs/custom-screens.md). Plain SQL, no policy; every read is scoped to an account. */

export interface CustomScreenVersionRecord {
  version: number;
  effectiveFrom: string;
  createdAt: string;
  createdByKey: string | null;
  definition: CustomScreenDefinition;
}

export interface CustomScreenRecord {
  screenId: string;
  account: string;
  slug: string;
  createdAt: string;
  /** Oldest first. */
  versions: CustomScreenVersionRecord[];
}

interface ScreenRow {
  screen_id: string;
  account: string;
  slug: string;
  created_at: string;
}

interface VersionRow {
  screen_id: string;
  version: number | string;
  effective_from: string;
  created_at: string;
  created_by_key: string | null;
  definition: string;
}

function versionFrom(row: VersionRow): CustomScreenVersionRecord {
  return {
    version: Number(row.version),
    effectiveFrom: row.effective_from,
    createdAt: row.created_at,
    createdByKey: row.created_by_key,
    definition: JSON.parse(row.definition) as CustomScreenDefinition,
  };
}

/** What a new version records. */
export interface NewVersion {
  effectiveFrom: string;
  createdAt: string;
  createdByKey: string | null;
  definition: CustomScreenDefinition;
}

export type CreateOutcome = 'created' | 'exists' | 'limit';

export class CustomScreenStore {
  constructor(private readonly db: ServiceDb) {}

  /**
   * Creates a screen with its first version unless the account already has one of that slug
   * (`exists`) or `cap` screens (`limit`). Counting and inserting share one transaction and lock,
   * so two requests at once cannot both pass the cap.
   */
  async create(account: string, slug: string, screenId: string, first: NewVersion, cap: number): Promise<CreateOutcome> {
    return this.db.transaction(async (tx) => {
      await tx.lock(`custom-screens:${account}`);
      if ((await tx.get('SELECT 1 AS one FROM custom_screens WHERE account = ? AND slug = ?', [account, slug])) !== undefined)
        return 'exists';
      const count = await tx.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM custom_screens WHERE account = ?', [account]);
      if (Number(count?.n ?? 0) >= cap) return 'limit';
      await tx.run('INSERT INTO custom_screens (screen_id, account, slug, created_at) VALUES (?, ?, ?, ?)', [
        screenId,
        account,
        slug,
        first.createdAt,
      ]);
      await tx.run(
        'INSERT INTO custom_screen_versions (screen_id, version, effective_from, created_at, created_by_key, definition) VALUES (?, 1, ?, ?, ?, ?)',
        [screenId, first.effectiveFrom, first.createdAt, first.createdByKey, JSON.stringify(first.definition)],
      );
      return 'created';
    });
  }

  /**
   * Adds the next version of the account's screen; undefined when it has no screen of that slug,
   * `limit` when the screen already has `cap` versions.
   */
  async addVersion(account: string, slug: string, next: NewVersion, cap: number): Promise<number | 'limit' | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.lock(`custom-screens:${account}`);
      const screen = await tx.get<{ screen_id: string }>('SELECT screen_id FROM custom_screens WHERE account = ? AND slug = ?', [
        account,
        slug,
      ]);
      if (screen === undefined) return undefined;
      const last = await tx.get<{ v: number | string | null }>('SELECT MAX(version) AS v FROM custom_screen_versions WHERE screen_id = ?', [
        screen.screen_id,
      ]);
      const version = Number(last?.v ?? 0) + 1;
      if (version > cap) return 'limit';
      await tx.run(
        'INSERT INTO custom_screen_versions (screen_id, version, effective_from, created_at, created_by_key, definition) VALUES (?, ?, ?, ?, ?, ?)',
        [screen.screen_id, version, next.effectiveFrom, next.createdAt, next.createdByKey, JSON.stringify(next.definition)],
      );
      return version;
    });
  }

  /** The account's screen of that slug with every version, or undefined (another account's is undefined too). */
  async get(account: string, slug: string): Promise<CustomScreenRecord | undefined> {
    const row = await this.db.get<ScreenRow>(
      'SELECT screen_id, account, slug, created_at FROM custom_screens WHERE account = ? AND slug = ?',
      [account, slug],
    );
    if (row === undefined) return undefined;
    const versions = await this.db.all<VersionRow>(
      'SELECT screen_id, version, effective_from, created_at, created_by_key, definition FROM custom_screen_versions WHERE screen_id = ? ORDER BY version',
      [row.screen_id],
    );
    return {
      screenId: row.screen_id,
      account: row.account,
      slug: row.slug,
      createdAt: row.created_at,
      versions: versions.map(versionFrom),
    };
  }

  /** The account's screens, by slug, each with every version. */
  async list(account: string): Promise<CustomScreenRecord[]> {
    const rows = await this.db.all<ScreenRow>(
      'SELECT screen_id, account, slug, created_at FROM custom_screens WHERE account = ? ORDER BY slug',
      [account],
    );
    const versions = await this.db.all<VersionRow>(
      'SELECT v.screen_id, v.version, v.effective_from, v.created_at, v.created_by_key, v.definition FROM custom_screen_versions v ' +
        'JOIN custom_screens s ON s.screen_id = v.screen_id WHERE s.account = ? ORDER BY v.screen_id, v.version',
      [account],
    );
    return rows.map((row) => ({
      screenId: row.screen_id,
      account: row.account,
      slug: row.slug,
      createdAt: row.created_at,
      versions: versions.filter((v) => v.screen_id === row.screen_id).map(versionFrom),
    }));
  }

  /** Deletes the account's screen and its versions; false when it has none of that slug. */
  async delete(account: string, slug: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const screen = await tx.get<{ screen_id: string }>('SELECT screen_id FROM custom_screens WHERE account = ? AND slug = ?', [
        account,
        slug,
      ]);
      if (screen === undefined) return false;
      await tx.run('DELETE FROM custom_screen_versions WHERE screen_id = ?', [screen.screen_id]);
      await tx.run('DELETE FROM custom_screens WHERE screen_id = ?', [screen.screen_id]);
      return true;
    });
  }
}
