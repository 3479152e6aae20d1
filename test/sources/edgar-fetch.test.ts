import { readFileSync } from 'node:fs';
import { readFile, readdir, truncate } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FetchUsageError, runFetchEdgar, type FetchEdgarOptions } from '../../cli/commands/fetch.ts';
import { createEdgarClient, type EdgarClientOptions } from '../../sources/edgar/edgar-client.ts';
import { fetchEdgar, type EdgarSelection } from '../../sources/edgar/edgar-fetch.ts';
import { readEdgarFolder } from '../support/edgar-folder.ts';
import { REALDATA, maxInWindow, startSecReplayServer, type SecReplayServer } from '../support/sec-replay-server.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const USER_AGENT = 'Faithscreen Tests ops@example.com';
const AAPL_FACTS = '/api/xbrl/companyfacts/CIK0000320193.json';
const AAPL_SUBMISSIONS = '/submissions/CIK0000320193.json';
const TICKERS_LIST = '/files/company_tickers_exchange.json';
const recorded = (file: string): string => gunzipSync(readFileSync(path.join(REALDATA, `${file}.gz`))).toString('utf8');

describe('fetchEdgar against a local SEC replay server', () => {
  let server: SecReplayServer;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;

  beforeEach(async () => {
    server = await startSecReplayServer();
    temp = await makeTempDir('faithscreen-edgar-fetch-');
  });
  afterEach(async () => {
    await server.close();
    await temp.cleanup();
  });

  /** Fast retries for tests; pacing stays real (10/s). */
  const client = (options: Partial<EdgarClientOptions> = {}) =>
    createEdgarClient({
      userAgent: USER_AGENT,
      maxPerSecond: 10,
      baseUrls: { www: server.url, data: server.url },
      backoffMs: 5,
      maxTries: 3,
      ...options,
    });
  const fetchInto = (selection: EdgarSelection, options: Partial<EdgarClientOptions> & { force?: boolean } = {}) => {
    const { force, ...clientOptions } = options;
    // These tests are about the JSON files; the instances have their own (edgar-xbrl-fetch.test.ts).
    return fetchEdgar({ client: client(clientOptions), outDir: temp.dir, selection, force, instances: false });
  };
  const requestsFor = (urlPath: string) => server.requests.filter((r) => r.path === urlPath);

  it('when companies are fetched by CIK, then the recorded files land byte for byte and the EDGAR source reads the folder', async () => {
    const summary = await fetchInto({ ciks: ['320193', '0001045810'] });

    expect(summary).toMatchObject({ companies: 2, downloaded: 5, skipped: 0, failed: 0, failures: [] });
    expect(server.requests.map((r) => r.path)).toEqual(expect.arrayContaining([TICKERS_LIST, AAPL_SUBMISSIONS, AAPL_FACTS]));
    expect(server.requests[0]!.path).toBe(TICKERS_LIST);
    expect(await readFile(path.join(temp.dir, 'companyfacts/CIK0000320193.json'), 'utf8')).toBe(
      recorded('companyfacts/CIK0000320193.json'),
    );
    expect((await readdir(path.join(temp.dir, 'submissions'))).sort()).toEqual(['CIK0000320193.json', 'CIK0001045810.json']);
    const folder = await readEdgarFolder(temp.dir);
    expect(folder.listings.get('AAPL')).toEqual({ sourceRef: 'edgar:CIK0000320193', sic: '3571' });
    expect(folder.fundamentals.get('AAPL')).toBeGreaterThan(40);
    expect(folder.fundamentals.get('NVDA')).toBeGreaterThan(40);
  });

  it('when any request is made, then it carries the User-Agent', async () => {
    await fetchInto({ tickers: ['AAPL', 'CZR'] });
    expect(server.requests.length).toBe(5);
    expect(server.requests.every((r) => r.userAgent === USER_AGENT)).toBe(true);
  });

  it('when the rate asked for is above 10/s, then no more than 10 requests arrive in any one second', async () => {
    const ciks = ['320193', '1045810', '104169', '909832', '63908', '1744489'];
    await fetchInto({ ciks }, { maxPerSecond: 50 });
    expect(server.requests.length).toBe(13);
    expect(maxInWindow(server.requests.map((r) => r.at))).toBeLessThanOrEqual(10);
  });

  it('when the SEC answers 429 with Retry-After, then the client waits that long and the retry succeeds', async () => {
    server.script(AAPL_FACTS, { status: 429, headers: { 'Retry-After': '1' }, body: 'slow down' });
    const summary = await fetchInto({ ciks: ['320193'] });
    expect(summary).toMatchObject({ downloaded: 3, failed: 0 });
    const [refused, retried] = requestsFor(AAPL_FACTS);
    expect(retried!.at - refused!.at).toBeGreaterThanOrEqual(990);
  });

  it('when the SEC answers 503 or drops the connection, then the request is retried until it succeeds', async () => {
    server.script(AAPL_FACTS, { status: 503 }, { drop: true });
    const summary = await fetchInto({ ciks: ['320193'] });
    expect(summary).toMatchObject({ downloaded: 3, failed: 0 });
    expect(requestsFor(AAPL_FACTS)).toHaveLength(3);
  });

  it('when 503 lasts past the bounded tries, then the company fails with the status and the number of tries', async () => {
    server.script(AAPL_FACTS, { status: 503 }, { status: 503 }, { status: 503 });
    const summary = await fetchInto({ ciks: ['320193'] });
    expect(requestsFor(AAPL_FACTS)).toHaveLength(3);
    expect(summary.failures).toEqual([
      { company: 'CIK0000320193', cik: '0000320193', reason: 'companyfacts/CIK0000320193.json: HTTP 503 after 3 tries' },
    ]);
  });

  it('when the SEC has no file for a company (404), then it is failed with the reason, once, and the other company still lands', async () => {
    const summary = await fetchInto({ tickers: ['MSFT', 'CZR'] });
    expect(summary.failures).toEqual([
      {
        company: 'MSFT',
        cik: '0000789019',
        reason: expect.stringMatching(
          /^submissions\/CIK0000789019\.json: HTTP 404 .*; companyfacts\/CIK0000789019\.json: HTTP 404 /,
        ) as unknown,
      },
      { company: 'CZR', cik: '0001590895', reason: 'submissions/CIK0001590895.json: HTTP 404 (the SEC has no such file for this company)' },
    ]);
    expect(requestsFor('/api/xbrl/companyfacts/CIK0000789019.json')).toHaveLength(1);
    expect(await readdir(path.join(temp.dir, 'companyfacts'))).toEqual(['CIK0001590895.json']);
  });

  it('when a ticker is not in the tickers list, then it fails naming the ticker and the others are fetched', async () => {
    const summary = await fetchInto({ tickers: ['AAPL', 'QQZZX'] });
    expect(summary.failures).toEqual([
      { company: 'QQZZX', cik: null, reason: expect.stringContaining("ticker 'QQZZX' is not in company_tickers_exchange.json") as unknown },
    ]);
    expect(summary.downloaded).toBe(3);
  });

  it('when a saved tickers list lacks a ticker, then a fresh list is fetched once before the ticker is called unknown, and the saved one stands if that fails', async () => {
    await fetchInto({ tickers: ['AAPL'] });
    server.requests.length = 0;
    const summary = await fetchInto({ tickers: ['AAPL', 'QQZZX'] });
    expect(server.requests.map((r) => r.path)).toEqual([TICKERS_LIST]);
    expect(summary.failures.map((f) => f.company)).toEqual(['QQZZX']);

    server.script(TICKERS_LIST, { status: 503 }, { status: 503 }, { status: 503 });
    const unrefreshed = await fetchInto({ tickers: ['AAPL', 'QQZZX'] });
    expect(unrefreshed).toMatchObject({ skipped: 3, failed: 0 });
    expect(unrefreshed.failures.map((f) => f.company)).toEqual(['QQZZX']);
  });

  it('when the run is repeated, then complete files are skipped without a request, a truncated file is fetched again, and force fetches all', async () => {
    await fetchInto({ tickers: ['AAPL', 'NVDA'] });
    server.requests.length = 0;

    const again = await fetchInto({ tickers: ['AAPL', 'NVDA'] });
    expect(again).toMatchObject({ downloaded: 0, skipped: 5, failed: 0 });
    expect(server.requests).toHaveLength(0);

    await truncate(path.join(temp.dir, 'companyfacts/CIK0000320193.json'), 100_000);
    const resumed = await fetchInto({ tickers: ['AAPL', 'NVDA'] });
    expect(resumed).toMatchObject({ downloaded: 1, skipped: 4, failed: 0 });
    expect(server.requests.map((r) => r.path)).toEqual([AAPL_FACTS]);
    expect(await readFile(path.join(temp.dir, 'companyfacts/CIK0000320193.json'), 'utf8')).toBe(
      recorded('companyfacts/CIK0000320193.json'),
    );

    const forced = await fetchInto({ tickers: ['AAPL', 'NVDA'] }, { force: true });
    expect(forced).toMatchObject({ downloaded: 5, skipped: 0 });
  });

  it('when a body is not the SEC format (an HTML page, JSON of another shape), then it is refused naming the file, and a complete file is kept', async () => {
    server.script(AAPL_SUBMISSIONS, {
      status: 200,
      headers: { 'Content-Type': 'text/html' },
      body: '<html>Request Rate Threshold Exceeded</html>',
    });
    server.script(AAPL_FACTS, { status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"error":"not here"}' });
    const summary = await fetchInto({ ciks: ['320193'] });
    expect(summary.failures[0]!.reason).toMatch(
      /^submissions\/CIK0000320193\.json: not JSON .*; companyfacts\/CIK0000320193\.json: not in the EDGAR format: cik/,
    );
    expect(await readdir(temp.dir)).toEqual(['company_tickers_exchange.json']);

    await fetchInto({ ciks: ['320193'] });
    server.script(AAPL_FACTS, { status: 200, body: '{"cik": 320193}' });
    const forced = await fetchInto({ ciks: ['320193'] }, { force: true });
    expect(forced.failures[0]!.reason).toMatch(/companyfacts\/CIK0000320193\.json: not in the EDGAR format/);
    expect(await readFile(path.join(temp.dir, 'companyfacts/CIK0000320193.json'), 'utf8')).toBe(
      recorded('companyfacts/CIK0000320193.json'),
    );
    expect((await readdir(path.join(temp.dir, 'companyfacts'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('when the tickers list itself cannot be had, then the run stops saying so', async () => {
    server.script(TICKERS_LIST, { status: 200, body: '{"fields":["cik"],"data":[]}' });
    await expect(fetchInto({ tickers: ['AAPL'] })).rejects.toThrow(
      /cannot get the tickers list: company_tickers_exchange.json: not in the EDGAR format/,
    );
  });
});

describe('runFetchEdgar options', () => {
  const base: FetchEdgarOptions = { tickers: ['AAPL'], rate: 8, out: '/nonexistent-never-written' };

  it('when no User-Agent is given, then it refuses saying the SEC requires a name and a contact e-mail', async () => {
    await expect(runFetchEdgar(base, {})).rejects.toThrow(FetchUsageError);
    await expect(runFetchEdgar(base, {})).rejects.toThrow(
      /SEC requires a User-Agent with a name and a contact e-mail.*--user-agent.*SEC_USER_AGENT/,
    );
    await expect(runFetchEdgar({ ...base, userAgent: 'ops@example.com' }, {})).rejects.toThrow(/has no name/);
    await expect(runFetchEdgar(base, { SEC_USER_AGENT: 'Faithscreen Tests' })).rejects.toThrow(/has no contact e-mail/);
  });

  it('when the selection is missing or doubled, then it names the three choices', async () => {
    await expect(runFetchEdgar({ rate: 8, userAgent: USER_AGENT }, {})).rejects.toThrow(
      /exactly one of --tickers AAPL,CZR, --ciks 320193,1590895 or --all/,
    );
    await expect(runFetchEdgar({ rate: 8, userAgent: USER_AGENT, tickers: ['AAPL'], all: true }, {})).rejects.toThrow(
      /got --tickers and --all/,
    );
  });
});
