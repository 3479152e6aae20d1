import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEdgarClient } from '../../sources/edgar/edgar-client.ts';
import { fetchEdgar } from '../../sources/edgar/edgar-fetch.ts';
import { SubmissionsSchema, parseEdgarJson } from '../../sources/edgar/edgar-formats.ts';
import { instanceFileOf, instanceFilings } from '../../sources/edgar/xbrl-fetch.ts';
import { REALDATA, startSecReplayServer, type SecReplayServer } from '../support/sec-replay-server.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** Walmart's recorded submissions: its latest 10-K is 0000104169-26-000055 (filed 2026-03-13), one 10-Q since. */
const WMT = '0000104169';
const wmtSubmissions = () =>
  parseEdgarJson(
    SubmissionsSchema,
    gunzipSync(readFileSync(path.join(REALDATA, `submissions/CIK${WMT}.json.gz`))).toString('utf8'),
    'submissions',
  );
const TEN_K = '0000104169-26-000055';
const TEN_Q = '0000104169-26-000102';
const folder = (accession: string) => `/Archives/edgar/data/104169/${accession.replace(/-/g, '')}`;

/** A filing's `index.json` as EDGAR serves it, listing the given files. */
const indexOf = (accession: string, names: string[]) => ({
  status: 200,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ directory: { name: folder(accession), item: names.map((name) => ({ name, type: 'text.gif', size: '' })) } }),
});

/** A small instance with one revenue fact (the fetch only needs a document that parses and holds facts). */
const PLAIN_INSTANCE = `<?xml version="1.0" encoding="utf-8"?>
<xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:us-gaap="http://fasb.org/us-gaap/2025" xmlns:iso4217="http://www.xbrl.org/2003/iso4217">
  <context id="c-1"><entity><identifier scheme="http://www.sec.gov/CIK">0000104169</identifier></entity>
    <period><startDate>2025-02-01</startDate><endDate>2026-01-31</endDate></period></context>
  <unit id="usd"><measure>iso4217:USD</measure></unit>
  <us-gaap:Revenues contextRef="c-1" unitRef="usd" decimals="-6">700000000000</us-gaap:Revenues>
</xbrl>
`;
const INLINE_DOCUMENT = `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance"
  xmlns:us-gaap="http://fasb.org/us-gaap/2025" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"
  xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12">
<body><div style="display:none"><ix:header><ix:resources>
  <xbrli:context id="c-1"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000104169</xbrli:identifier></xbrli:entity>
    <xbrli:period><xbrli:startDate>2026-02-01</xbrli:startDate><xbrli:endDate>2026-04-30</xbrli:endDate></xbrli:period></xbrli:context>
  <xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<p>Revenue <ix:nonFraction name="us-gaap:Revenues" contextRef="c-1" unitRef="usd" decimals="-6" scale="6"
  format="ixt:num-dot-decimal">180,000</ix:nonFraction></p>
</body></html>
`;

describe('instanceFilings and instanceFileOf', () => {
  it('when a company has filed 10-Ks and 10-Qs, then the latest 10-K and the 10-Qs filed since are read, newest first', () => {
    expect(instanceFilings(wmtSubmissions()).map((f) => [f.accession, f.form, f.filingDate, f.primaryDocument])).toEqual([
      [TEN_Q, '10-Q', '2026-05-29', 'wmt-20260430.htm'],
      [TEN_K, '10-K', '2026-03-13', 'wmt-20260131.htm'],
    ]);
  });

  it('when a company has filed no 10-K, then no filing is read', () => {
    const submissions = wmtSubmissions();
    const recent = submissions.filings.recent;
    const noAnnual = { ...submissions, filings: { recent: { ...recent, form: recent.form.map((f) => (f === '10-K' ? '10-K/A' : f)) } } };
    expect(instanceFilings(noAnnual)).toEqual([]);
  });

  it.each([
    [['wmt-20260131.htm', 'wmt-20260131_htm.xml', 'wmt-20260131_cal.xml', 'wmt-20260131.xsd'], 'wmt-20260131_htm.xml'],
    [['FilingSummary.xml', 'aapl-20100925.xml', 'aapl-20100925_lab.xml', 'aapl-20100925_pre.xml'], 'aapl-20100925.xml'],
    [['wmt-20260131.htm', 'wmt-20260131_def.xml', 'R1.htm'], 'wmt-20260131.htm'],
    [['R1.htm', 'Financial_Report.xlsx'], null],
  ])('in a filing listing %j the instance is %s', (names, expected) => {
    expect(instanceFileOf(names, 'wmt-20260131.htm')).toBe(expected);
  });
});

describe('fetchEdgar with XBRL instances, against a local SEC replay server', () => {
  let server: SecReplayServer;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;

  beforeEach(async () => {
    server = await startSecReplayServer();
    temp = await makeTempDir('faithscreen-xbrl-fetch-');
  });
  afterEach(async () => {
    await server.close();
    await temp.cleanup();
  });

  const run = (force = false) =>
    fetchEdgar({
      client: createEdgarClient({
        userAgent: 'Faithscreen Tests ops@example.com',
        maxPerSecond: 10,
        baseUrls: { www: server.url, data: server.url },
        backoffMs: 5,
        maxTries: 2,
      }),
      outDir: temp.dir,
      selection: { ciks: [WMT] },
      force,
    });
  const archiveRequests = () => server.requests.filter((r) => r.path.startsWith('/Archives/')).map((r) => r.path);

  it('when the 10-K lists an extracted instance and the 10-Q only its inline document, then both land under the accession, and a second run skips them without a request', async () => {
    server.script(`${folder(TEN_K)}/index.json`, indexOf(TEN_K, ['wmt-20260131.htm', 'wmt-20260131_htm.xml', 'wmt-20260131_lab.xml']));
    server.script(`${folder(TEN_K)}/wmt-20260131_htm.xml`, {
      status: 200,
      headers: { 'Content-Type': 'application/xml' },
      body: PLAIN_INSTANCE,
    });
    server.script(`${folder(TEN_Q)}/index.json`, indexOf(TEN_Q, ['wmt-20260430.htm', 'wmt-20260430.xsd']));
    server.script(`${folder(TEN_Q)}/wmt-20260430.htm`, { status: 200, body: INLINE_DOCUMENT });

    const first = await run();
    expect(first.failures).toEqual([]);
    expect(first.results[0]!.files.slice(2)).toEqual([
      { file: `xbrl/CIK${WMT}/${TEN_Q}.xml`, outcome: 'downloaded' },
      { file: `xbrl/CIK${WMT}/${TEN_K}.xml`, outcome: 'downloaded' },
    ]);
    expect(await readFile(path.join(temp.dir, `xbrl/CIK${WMT}/${TEN_K}.xml`), 'utf8')).toBe(PLAIN_INSTANCE);
    expect(await readFile(path.join(temp.dir, `xbrl/CIK${WMT}/${TEN_Q}.xml`), 'utf8')).toBe(INLINE_DOCUMENT);
    // The 10-K before the latest one (0000104169-25-000021) is not read.
    expect(archiveRequests()).toEqual([
      `${folder(TEN_Q)}/index.json`,
      `${folder(TEN_Q)}/wmt-20260430.htm`,
      `${folder(TEN_K)}/index.json`,
      `${folder(TEN_K)}/wmt-20260131_htm.xml`,
    ]);

    const before = server.requests.length;
    const second = await run();
    expect(second.results[0]!.files.map((f) => f.outcome)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
    expect(server.requests.slice(before).filter((r) => r.path.startsWith('/Archives/'))).toEqual([]);
  });

  it('when a filing index lists no instance, or an instance is not XML, then that filing fails with its reason and nothing is written for it', async () => {
    server.script(`${folder(TEN_K)}/index.json`, indexOf(TEN_K, ['R1.htm', 'Financial_Report.xlsx']));
    server.script(`${folder(TEN_Q)}/index.json`, indexOf(TEN_Q, ['wmt-20260430_htm.xml']));
    server.script(`${folder(TEN_Q)}/wmt-20260430_htm.xml`, { status: 200, body: '<html><body>Request Rate Threshold Exceeded' });

    const summary = await run();
    const [quarter, annual] = summary.results[0]!.files.slice(2);
    expect(annual).toEqual({
      file: `xbrl/CIK${WMT}/${TEN_K}.xml`,
      outcome: 'failed',
      reason: `xbrl/CIK${WMT}/${TEN_K}.xml: the 10-K ${TEN_K} lists no XBRL instance`,
    });
    expect(quarter).toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(/wmt-20260430_htm\.xml: XBRL instance .* not well-formed XML/),
    });
    expect(summary.failures.map((f) => f.cik)).toEqual([WMT]);
    await expect(readFile(path.join(temp.dir, `xbrl/CIK${WMT}/${TEN_Q}.xml`))).rejects.toThrow(/ENOENT/);
  });

  it('when the SEC has no index for a filing (404), then the filing fails naming the status', async () => {
    server.script(`${folder(TEN_Q)}/index.json`, indexOf(TEN_Q, ['wmt-20260430.htm']));
    server.script(`${folder(TEN_Q)}/wmt-20260430.htm`, { status: 200, body: INLINE_DOCUMENT });

    const [quarter, annual] = (await run()).results[0]!.files.slice(2);
    expect(quarter!.outcome).toBe('downloaded');
    expect(annual).toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(/filing index of 0000104169-26-000055: .*404.*no such file/),
    });
  });
});
