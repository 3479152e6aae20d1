/**
 * The curated, cited list of company activity classifications (`activities.json` beside this
 * file): for companies that no filing concept or SIC code names, such as a leaf-tobacco
 * merchant. How to extend it: docs/data/real-companies.md, "The curated list".
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ACTIVITY_CODES, INVOLVEMENTS, NO_SCREENED_ACTIVITY, type Involvement } from '../../engine/inputs.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const EntrySchema = z.object({
  cik: z.number().int().positive(),
  ticker: z.string().min(1),
  activity: z.enum([...ACTIVITY_CODES, NO_SCREENED_ACTIVITY]),
  revenue_share: z.number().min(0).max(1),
  /** How the company takes part (docs/data/activities.md, "Involvement"); absent = not known. */
  involvement: z.enum(INVOLVEMENTS).optional(),
  from: z.string().regex(DATE),
  to: z.string().regex(DATE).optional(),
  basis: z.string().min(10),
  citation: z.string().min(10),
});

const ListSchema = z.object({ about: z.string(), entries: z.array(EntrySchema) });

export type CuratedEntry = z.infer<typeof EntrySchema>;

/** Parses a curated list, naming the entry and field of the first problem. */
export function parseCuratedActivities(text: string, file: string): CuratedEntry[] {
  const parsed = ListSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: ${issue.path.join('.')}: ${issue.message}`);
  }
  for (const e of parsed.data.entries) {
    if (e.activity === NO_SCREENED_ACTIVITY && e.revenue_share !== 0)
      throw new Error(`${file}: ${e.ticker} 'none' entry must have revenue_share 0`);
  }
  return parsed.data.entries;
}

let cached: CuratedEntry[] | null = null;

/** The repository's curated list. */
export function curatedActivities(): CuratedEntry[] {
  const file = new URL('./activities.json', import.meta.url);
  cached ??= parseCuratedActivities(readFileSync(file, 'utf8'), 'sources/curated/activities.json');
  return cached;
}

/**
 * Exposure rows of a company's curated entries: one on the entry's first day and one on each
 * annual report filed while it holds, so the classification stays as fresh as the filings.
 */
type CuratedRow = {
  activity: string;
  revenue_share: number;
  as_of: string;
  source_ref: string;
  evidence: 'curated';
  involvement: Involvement | null;
};

export function curatedExposureRows(cik: number, annualReports: readonly string[]): CuratedRow[] {
  const rows: CuratedRow[] = [];
  for (const e of curatedActivities()) {
    if (e.cik !== cik) continue;
    const dates = new Set([e.from, ...annualReports.filter((d) => d >= e.from && (e.to === undefined || d <= e.to))]);
    for (const as_of of [...dates].sort()) {
      rows.push({
        activity: e.activity,
        revenue_share: e.revenue_share,
        as_of,
        source_ref: `curated: ${e.citation}`,
        evidence: 'curated',
        involvement: e.involvement ?? null,
      });
    }
  }
  return rows;
}
