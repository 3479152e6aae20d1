import type { ServingRow } from './serving-types.ts';

/** Rows in ticker order by code unit (what the lake and the API use), whatever the engine's collation. */
export function byTicker(rows: ServingRow[]): ServingRow[] {
  return rows.sort((a, b) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0));
}
