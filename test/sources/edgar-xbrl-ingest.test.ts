import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestSource } from '../../sources/ingest.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { loadScreeningInputsForDates } from '../../warehouse/screening-inputs.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { QUARRY_CHIPS } from '../support/xbrl-constructed.ts';
import { inlineDocument } from '../support/xbrl-documents.ts';

/** A fictional company's EDGAR folder: 10-K 0009999901-25-000004 filed 2025-02-21, 10-Q 0009999901-25-000019 filed 2025-08-01. */
const FICTIONAL = path.resolve('test/fixtures/edgar/folder');
const CIK = '0009999901';

/** A plain instance with a total revenue and members on the product axis, all in one period. */
function instance(start: string, end: string, total: number, members: Record<string, number>): string {
  const context = (id: string, member: string | null) =>
    `<context id="${id}"><entity><identifier scheme="http://www.sec.gov/CIK">${CIK}</identifier>${
      member ? `<segment><xbrldi:explicitMember dimension="srt:ProductOrServiceAxis">${member}</xbrldi:explicitMember></segment>` : ''
    }</entity><period><startDate>${start}</startDate><endDate>${end}</endDate></period></context>`;
  const entries = Object.entries(members);
  return `<xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:us-gaap="http://fasb.org/us-gaap/2024"
  xmlns:srt="http://fasb.org/srt/2024" xmlns:qz="http://example.com/qz/2024" xmlns:iso4217="http://www.xbrl.org/2003/iso4217">
  ${context('total', null)}${entries.map(([m], i) => context(`m${i}`, m)).join('')}
  <unit id="usd"><measure>iso4217:USD</measure></unit>
  <us-gaap:Revenues contextRef="total" unitRef="usd" decimals="-6">${total}</us-gaap:Revenues>
  ${entries.map(([, v], i) => `<us-gaap:Revenues contextRef="m${i}" unitRef="usd" decimals="-6">${v}</us-gaap:Revenues>`).join('\n')}
</xbrl>`;
}

describe('the EDGAR source reads saved XBRL instances into the lake, dated by filing', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir('faithscreen-xbrl-ingest-');
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  const inputsOn = (ticker: string, dates: string[]) =>
    withDuckDB(':memory:', {}, (c) => loadScreeningInputsForDates(c, temp.dir, { dates, market: 'us', tickers: [ticker] }));

  it('when a 10-K and a later 10-Q split revenue, then each date reads the latest filed split: activity rows and the accounting, never before the filing day', async () => {
    const folder = path.join(temp.dir, 'edgar');
    await cp(FICTIONAL, folder, { recursive: true });
    const xbrl = path.join(folder, 'xbrl', `CIK${CIK}`);
    await mkdir(xbrl, { recursive: true });
    await writeFile(
      path.join(xbrl, '0009999901-25-000004.xml'),
      instance('2024-01-01', '2024-12-31', 1000, { 'qz:CasinoMember': 600, 'qz:RoomsMember': 250, 'qz:QuarryToolsMember': 150 }),
    );
    await writeFile(
      path.join(xbrl, '0009999901-25-000019.xml'),
      instance('2025-01-01', '2025-06-30', 500, { 'qz:CasinoMember': 200, 'qz:FoodAndBeverageMember': 300 }),
    );
    // An accession the submissions do not list cannot be dated: it is left out.
    await writeFile(path.join(xbrl, '0009999901-25-000099.xml'), instance('2025-01-01', '2025-09-30', 100, { 'qz:CasinoMember': 100 }));

    await ingestSource({ dataDir: temp.dir, source: 'edgar', path: folder });
    const [before, afterAnnual, afterQuarter] = await inputsOn('QZQT', ['2025-02-20', '2025-03-01', '2025-08-15']);
    const dimensional = (input: typeof before) =>
      input!.exposures.filter((e) => e.evidence === 'filing_dimension').map((e) => [e.activity, e.revenueShare, e.asOf, e.involvement]);

    expect(dimensional(before)).toEqual([]);
    expect(before!.revenueAccounted).toBeNull();
    expect(dimensional(afterAnnual)).toEqual([
      ['gambling', 0.6, '2025-02-21', 'producer'],
      ['hotels_leisure', 0.25, '2025-02-21', 'producer'],
    ]);
    expect(afterAnnual!.revenueAccounted).toEqual({
      share: 1,
      asOf: '2024-12-31',
      sourceRef: 'EDGAR 0009999901-25-000004 us-gaap:Revenues by srt:ProductOrServiceAxis 2024-01-01..2024-12-31',
    });
    expect(afterAnnual!.exposures.find((e) => e.activity === 'gambling')!.sourceRef).toContain(
      'srt:ProductOrServiceAxis=qz:CasinoMember context m0',
    );
    // The 10-Q's casino share replaces the 10-K's; rooms, which it does not split out, keep the 10-K's dated row.
    expect(dimensional(afterQuarter)).toEqual([
      ['gambling', 0.4, '2025-08-01', 'producer'],
      ['hotels_leisure', 0.25, '2025-02-21', 'producer'],
    ]);
    expect(afterQuarter!.revenueAccounted).toMatchObject({ share: 0.4, asOf: '2025-06-30' });
  });

  it('when an inline 10-K split by segment and product is saved, then its accounting reads from the filing day on', async () => {
    const folder = path.join(temp.dir, 'edgar');
    await cp(FICTIONAL, folder, { recursive: true });
    await mkdir(path.join(folder, 'xbrl', `CIK${CIK}`), { recursive: true });
    // The constructed chip maker's figures, filed as this company's 10-K.
    const tenK = { ...QUARRY_CHIPS, cik: CIK, accession: '0009999901-25-000004' };
    await writeFile(path.join(folder, 'xbrl', `CIK${CIK}`, '0009999901-25-000004.xml'), inlineDocument(tenK));

    await ingestSource({ dataDir: temp.dir, source: 'edgar', path: folder });
    const [dayBefore, filingDay] = await inputsOn('QZQT', ['2025-02-20', '2025-02-21']);
    expect(dayBefore!.revenueAccounted).toBeNull();
    // Segments 100,000 + 30,000 are the whole of 130,000, but the product split leaves gaming 12,000 open.
    expect(filingDay!.revenueAccounted).toEqual({
      share: expect.closeTo(118_000 / 130_000, 12),
      asOf: '2025-01-26',
      sourceRef: 'EDGAR 0009999901-25-000004 us-gaap:Revenues by us-gaap:StatementBusinessSegmentsAxis 2024-01-29..2025-01-26',
    });
    expect(filingDay!.exposures.filter((e) => e.evidence === 'filing_dimension')).toEqual([]);
  });

  it('when a saved instance is not well-formed, then the ingest fails naming the file', async () => {
    const folder = path.join(temp.dir, 'edgar');
    await cp(FICTIONAL, folder, { recursive: true });
    await mkdir(path.join(folder, 'xbrl', `CIK${CIK}`), { recursive: true });
    await writeFile(path.join(folder, 'xbrl', `CIK${CIK}`, '0009999901-25-000004.xml'), '<xbrl><context id="a"></xbrl>');
    await expect(ingestSource({ dataDir: temp.dir, source: 'edgar', path: folder })).rejects.toThrow(
      /xbrl\/CIK0009999901\/0009999901-25-000004\.xml: XBRL instance 0009999901-25-000004: not well-formed XML/,
    );
  });
});
