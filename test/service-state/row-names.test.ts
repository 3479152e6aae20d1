import { describe, expect, it } from 'vitest';
import { recordOf } from '../../service-state/row-names.ts';

describe('a service-state row under its record names', () => {
  it('renames every snake_case column to camelCase and keeps each value as it is', () => {
    const row = { user_id: 'u1', email: 'a@example.test', password_hash: null, created_at_ms: '17', last_seen_at_ms: 18 };
    expect(recordOf(row)).toEqual({ userId: 'u1', email: 'a@example.test', passwordHash: null, createdAtMs: '17', lastSeenAtMs: 18 });
  });

  it('returns no column under its row name, and an empty row as an empty record', () => {
    expect(Object.keys(recordOf({ subscription_id: 'whs_1', deleted_at: null }))).toEqual(['subscriptionId', 'deletedAt']);
    expect(recordOf({})).toEqual({});
  });
});
