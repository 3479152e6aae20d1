/**
 * The issuer's domicile, from which the halakhic screen presumes who controls a company: read
 * from EDGAR's real submissions files (test/fixtures/realdata/submissions), carried through the
 * lake to the engine, and delivered by a feed's `domicile` column.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screenCompany } from '../../engine/index.ts';
import { countryOfEdgarCode, domicileOfEdgarIssuer } from '../../sources/edgar/edgar-locations.ts';
import { SubmissionsSchema, parseEdgarJson } from '../../sources/edgar/edgar-formats.ts';
import { listingsFromSubmissions } from '../../sources/edgar/submissions.ts';
import { FeedValidationError } from '../../sources/feed/feed-validation.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { loadScreeningInputs } from '../../warehouse/screening-inputs.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const REAL_SUBMISSIONS = path.resolve('test/fixtures/realdata/submissions');
const GOOD_FEED = path.resolve('test/fixtures/feed/good');

async function realSubmissions(name: string) {
  const text = gunzipSync(await readFile(path.join(REAL_SUBMISSIONS, name))).toString('utf8');
  return parseEdgarJson(SubmissionsSchema, text, name);
}

describe('EDGAR submissions → issuer domicile', () => {
  it("when the six real submissions files are read, then each issuer's domicile is the US, McDonald's Illinois address included", async () => {
    const names = (await readdir(REAL_SUBMISSIONS)).filter((n) => n.endsWith('.json.gz')).sort();
    expect(names).toHaveLength(6);
    const seen: Record<string, string | null> = {};
    for (const name of names) {
      const file = await realSubmissions(name);
      for (const listing of listingsFromSubmissions(file)) seen[listing.ticker] = listing.domicile;
    }
    expect(seen).toMatchObject({ MCD: 'US', WMT: 'US', AAPL: 'US', COST: 'US', NVDA: 'US', DIS: 'US' });
    // McDonald's files its business address as "IL": EDGAR's code for Illinois, not Israel (L3).
    const mcd = await realSubmissions('CIK0000063908.json.gz');
    expect(mcd.addresses?.business?.stateOrCountry).toBe('IL');
    expect(mcd.stateOfIncorporation).toBe('DE');
  });

  it('when an issuer is incorporated in Israel or has its business address there, then its domicile is IL', () => {
    expect(countryOfEdgarCode('L3')).toBe('IL');
    expect(domicileOfEdgarIssuer('L3', 'L3')).toBe('IL');
    // A Delaware company run from Israel, and an Israeli company with a US head office.
    expect(domicileOfEdgarIssuer('DE', 'L3')).toBe('IL');
    expect(domicileOfEdgarIssuer('L3', 'NJ')).toBe('IL');
  });

  it('when a code is empty or not one EDGAR is known here to use, then the domicile is unknown, not guessed', () => {
    expect(domicileOfEdgarIssuer(null, undefined)).toBeNull();
    expect(domicileOfEdgarIssuer('', '')).toBeNull();
    expect(countryOfEdgarCode('Q9')).toBeNull();
    expect(domicileOfEdgarIssuer('Q9', 'CA')).toBe('US');
    expect(domicileOfEdgarIssuer('E9', 'K3')).toBe('KY');
  });
});

describe('issuer domicile through the lake to the halakhic screen', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  const inputsOf = (tickers: string[], market = 'us') =>
    withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, temp.dir, { date: '2024-02-29', market, tickers }));

  it('when the real EDGAR files are ingested, then the listing carries its domicile and control is presumed from it', async () => {
    const folder = path.join(temp.dir, 'edgar');
    await mkdir(path.join(folder, 'submissions'), { recursive: true });
    await cp(path.join(REAL_SUBMISSIONS, 'CIK0000063908.json.gz'), path.join(folder, 'submissions', 'CIK0000063908.json.gz'));
    await ingestSource({ dataDir: temp.dir, source: 'edgar', path: folder });
    const [input] = await inputsOf(['MCD']);
    expect(input!.listing.domicile).toBe('US');
    const control = screenCompany(input!).frameworks.jewish_halakhic!.reasons.find((r) => r.code === 'jewish_halakhic.control')!;
    expect(control).toMatchObject({ result: 'info', metric: 'listing.domicile' });
    expect(control.message).toContain('presumed not controlled by Jews from the issuer, whose domicile is US');
  });

  it('when a feed delivers the same Israeli issuer on Tel Aviv and NASDAQ, then both listings get the same halakhic verdict', async () => {
    const folder = path.join(temp.dir, 'feed');
    await cp(GOOD_FEED, folder, { recursive: true });
    const listings = (await readFile(path.join(folder, 'listings.csv'), 'utf8')).trimEnd().split('\n');
    await writeFile(
      path.join(folder, 'listings.csv'),
      [`${listings[0]},domicile`, ...listings.slice(1).map((line) => `${line},${line.startsWith('us,QZXA,') ? 'IL' : ''}`)].join('\n') +
        '\n',
    );
    await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });
    const [input] = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputs(c, temp.dir, { date: '2026-10-01', market: 'us', tickers: ['QZXA'] }),
    );
    expect(input!.listing.domicile).toBe('IL');
    const nasdaq = screenCompany(input!).frameworks.jewish_halakhic!;
    const telAviv = screenCompany({ ...input!, listing: { ...input!.listing, market: 'il', exchangeMic: 'XTAE' } }).frameworks
      .jewish_halakhic!;
    expect(nasdaq.status).toBe(telAviv.status);
    expect(nasdaq.reasons.find((r) => r.code === 'jewish_halakhic.control')!.message).toContain('whose domicile is Israel');
  });

  it('when a feed domicile is not an ISO country code, then the delivery is rejected naming the column and what is valid', async () => {
    const folder = path.join(temp.dir, 'bad');
    await cp(GOOD_FEED, folder, { recursive: true });
    const listings = (await readFile(path.join(folder, 'listings.csv'), 'utf8')).trimEnd().split('\n');
    await writeFile(
      path.join(folder, 'listings.csv'),
      [`${listings[0]},domicile`, ...listings.slice(1).map((line) => `${line},Israel`)].join('\n') + '\n',
    );
    const error = await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedValidationError);
    expect(String((error as Error).message)).toMatch(/'domicile' must be an ISO 3166-1 alpha-2 code like US or IL/);
  });
});
