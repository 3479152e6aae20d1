/**
 * What a SIC industry code says about a company's screened activities. A code classifies the
 * primary line of business: it proves that business (`activityOfSic`), never the absence of a
 * side business. The reviewed table (`industry-code-table.ts`) lists, per code as EDGAR assigns
 * them, the screened activities a company of that class may carry; a code is clean for an
 * activity only where that table says so, and a code outside it is no evidence at all.
 * The table and its sources: docs/data/activities.md ("Industry codes").
 */
import type { ActivityCode, Involvement } from './inputs.ts';
import { PRIMARY_CLASSES, REVIEWED_CLASSES, type IndustryClass } from './industry-code-table.ts';
import { involvementOfSic } from './involvement.ts';

export interface IndustryActivity {
  activity: ActivityCode;
  sic: string;
  title: string;
}

export interface IndustryDoubt {
  sic: string;
  title: string;
  /** Screened activities the class may carry whose share the code cannot tell (empty: clean for every activity). */
  activities: readonly ActivityCode[];
}

function parseSic(sic: string | null): number | null {
  return sic !== null && /^\d{4}$/.test(sic) && sic !== '0000' ? Number(sic) : null;
}

/** The narrowest class containing `code`: specific codes before the groups around them. */
function narrowest(classes: readonly IndustryClass[], code: number): IndustryClass | null {
  let best: IndustryClass | null = null;
  for (const c of classes) {
    if (code < c.from || code > c.to) continue;
    if (best === null || c.to - c.from < best.to - best.from) best = c;
  }
  return best;
}

/** The screened activity a SIC code names as the primary business, or null when it names none. */
export function activityOfSic(sic: string | null): IndustryActivity | null {
  const code = parseSic(sic);
  if (code === null) return null;
  const c = narrowest(PRIMARY_CLASSES, code);
  return c === null || c.primary === undefined ? null : { activity: c.primary, sic: sic!, title: c.title };
}

/**
 * What the reviewed table says of a code: the activities a company of the class may carry
 * (beyond a primary business the code names), or null when the code is not in the table, in
 * which case it is no evidence that any activity is absent.
 */
export function industryDoubt(sic: string | null): IndustryDoubt | null {
  const code = parseSic(sic);
  if (code === null) return null;
  const c = narrowest(REVIEWED_CLASSES, code);
  return c === null ? null : { sic: sic!, title: c.title, activities: c.mayCarry };
}

/** True when the code is a well-formed 4-digit SIC code. */
export function isSicCode(sic: string | null): sic is string {
  return parseSic(sic) !== null;
}

/**
 * How a company of the class would take part in an activity it may carry: as the division says
 * for the activity a code names (`involvementOfSic`: manufacturers make it, wholesalers
 * distribute it), and retailers and restaurants (5200-5999) sell it to consumers; null where the
 * division does not say.
 */
export function involvementOfClass(sic: string | null): Involvement | null {
  const code = parseSic(sic);
  if (code === null) return null;
  return involvementOfSic(sic) ?? (code >= 5200 && code <= 5999 ? 'retailer' : null);
}
