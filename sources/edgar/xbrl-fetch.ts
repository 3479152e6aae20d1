/**
 * The XBRL instances of a company's latest 10-K and of the 10-Qs filed since, fetched beside its
 * submissions as `xbrl/CIK##########/<accession>.xml` (docs/data/sources.md, "XBRL instances").
 * A filing is found through the submissions' list of recent filings, its instance through the
 * filing's `index.json`; an instance is checked by parsing it before it is written.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { EdgarFetchError, type EdgarClient } from './edgar-client.ts';
import type { Submissions } from './edgar-formats.ts';
import { parseXbrlInstance } from './xbrl-instance.ts';

export interface InstanceFiling {
  accession: string;
  form: string;
  filingDate: string;
  /** The filing's main document (the inline XBRL document of an inline filing), when listed. */
  primaryDocument: string | null;
}

export interface InstanceFileResult {
  file: string;
  outcome: 'downloaded' | 'skipped' | 'failed';
  reason?: string;
}

const FilingIndexSchema = z.looseObject({
  directory: z.looseObject({ item: z.array(z.looseObject({ name: z.string() })) }),
});

/** Files of a filing folder that are XBRL but not an instance: linkbases, schema, rendering. */
const NOT_INSTANCE = /(_(cal|def|lab|pre)\.xml|\.xsd|^FilingSummary\.xml|^MetaLinks\.json|^primary_doc\.xml)$/i;

/** The saved instance of a filing, relative to the delivery folder. */
export const instancePath = (cik: string, accession: string): string => `xbrl/CIK${cik}/${accession}.xml`;

/**
 * The filings whose instances are read: the latest 10-K in the submissions' recent filings and
 * every 10-Q filed after it, newest first. None when the company has filed no 10-K there.
 */
export function instanceFilings(submissions: Submissions): InstanceFiling[] {
  const recent = submissions.filings.recent;
  const primary = (recent as Record<string, unknown>).primaryDocument;
  const documents = Array.isArray(primary) ? (primary as unknown[]) : [];
  const filings = recent.accessionNumber.map((accession, i) => ({
    accession,
    form: recent.form[i] ?? '',
    filingDate: recent.filingDate[i] ?? '',
    primaryDocument: typeof documents[i] === 'string' && documents[i] !== '' ? (documents[i] as string) : null,
  }));
  const annual = filings.filter((f) => f.form === '10-K').sort((a, b) => b.filingDate.localeCompare(a.filingDate))[0];
  if (!annual) return [];
  const quarters = filings.filter((f) => f.form === '10-Q' && f.filingDate >= annual.filingDate);
  return [...quarters, annual].sort((a, b) => b.filingDate.localeCompare(a.filingDate));
}

/**
 * The instance among a filing's files: EDGAR's own extract of an inline filing (`*_htm.xml`),
 * else a plain instance (`*.xml` that is no linkbase), else the inline document itself.
 */
export function instanceFileOf(names: string[], primaryDocument: string | null): string | null {
  return (
    names.find((n) => /_htm\.xml$/i.test(n)) ??
    names.find((n) => /\.xml$/i.test(n) && !NOT_INSTANCE.test(n)) ??
    (primaryDocument && names.includes(primaryDocument) ? primaryDocument : null)
  );
}

/** True when the saved instance parses and holds facts. */
async function isCompleteInstance(file: string): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return false;
  try {
    return parseXbrlInstance(text, path.basename(file)).facts.length > 0;
  } catch {
    return false;
  }
}

function reasonOf(error: unknown, what: string): string {
  if (error instanceof EdgarFetchError) return `${what}: ${error.message}${error.status === 404 ? ' (the SEC has no such file)' : ''}`;
  return `${what}: ${(error as Error).message}`;
}

/**
 * Gets one filing's instance into the folder: skipped when already complete (unless `force`),
 * else found through the filing index, downloaded, parsed and written by `write`.
 */
export async function fetchInstance(
  client: EdgarClient,
  outDir: string,
  cik: string,
  filing: InstanceFiling,
  force: boolean,
  write: (file: string, text: string) => Promise<void>,
): Promise<InstanceFileResult> {
  const file = instancePath(cik, filing.accession);
  const target = path.join(outDir, file);
  if (!force && (await isCompleteInstance(target))) return { file, outcome: 'skipped' };
  let names: string[];
  try {
    const index = FilingIndexSchema.safeParse(await client.getJson(client.urls.filingIndex(cik, filing.accession)));
    if (!index.success)
      return { file, outcome: 'failed', reason: `${file}: the filing index of ${filing.accession} is not in the EDGAR format` };
    names = index.data.directory.item.map((i) => i.name);
  } catch (error) {
    return { file, outcome: 'failed', reason: reasonOf(error, `${file}: filing index of ${filing.accession}`) };
  }
  const name = instanceFileOf(names, filing.primaryDocument);
  if (!name) return { file, outcome: 'failed', reason: `${file}: the ${filing.form} ${filing.accession} lists no XBRL instance` };
  try {
    const text = await client.getText(client.urls.filingFile(cik, filing.accession, name));
    if (parseXbrlInstance(text, filing.accession).facts.length === 0) throw new Error(`${name} holds no numeric facts`);
    await write(target, text);
    return { file, outcome: 'downloaded' };
  } catch (error) {
    return { file, outcome: 'failed', reason: reasonOf(error, `${file}: ${name}`) };
  }
}
