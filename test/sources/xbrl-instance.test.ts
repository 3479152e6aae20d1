import { describe, expect, it } from 'vitest';
import { parseXbrlInstance } from '../../sources/edgar/xbrl-instance.ts';
import { parseIxNumber } from '../../sources/edgar/xbrl-values.ts';
import { BROOKSIDE_BEVERAGE, HARBOR_RESORTS, TIDEWATER_MARKETPLACE } from '../support/xbrl-constructed.ts';
import { inlineDocument as constructedInline, plainInstance } from '../support/xbrl-documents.ts';

/** An inline XBRL document as EDGAR receives them: XHTML with the contexts in `ix:resources`. */
function inlineDocument(body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
  xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi"
  xmlns:gaap="http://fasb.org/us-gaap/2024" xmlns:product="http://fasb.org/srt/2024"
  xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:co="http://example.com/20241231"
  xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12"
  xmlns:ixt-sec="http://www.sec.gov/inlineXBRL/transformation/2015-08-31"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<head><title>co-20241231</title></head>
<body><div style="display:none"><ix:header><ix:resources>
  <xbrli:context id="FY"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier></xbrli:entity>
    <xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
  <xbrli:context id="FY_casino"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier>
    <xbrli:segment><xbrldi:explicitMember dimension="product:ProductOrServiceAxis">co:CasinoMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
    <xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
  <xbrli:context id="END_loan"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier>
    <xbrli:segment><xbrldi:typedMember dimension="co:LoanAxis"><co:id>L-7</co:id></xbrldi:typedMember></xbrli:segment></xbrli:entity>
    <xbrli:period><xbrli:instant>2024-12-31</xbrli:instant></xbrli:period></xbrli:context>
  <xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
  <xbrli:unit id="usdPerShare"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator>
    <xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
</ix:resources></ix:header></div>
${body}
</body></html>`;
}

describe('parseXbrlInstance on a plain instance (constructed marketplace 10-K, three years)', () => {
  const { facts, unreadable } = parseXbrlInstance(plainInstance(TIDEWATER_MARKETPLACE), '0009999917-23-000004');

  it('when a fact carries a product member, then it comes with its axis, period, unit, decimals, value and context', () => {
    const physical = facts.find(
      (f) =>
        f.members['srt:ProductOrServiceAxis'] === 'ftm:PhysicalStoresMember' &&
        f.period.kind === 'duration' &&
        f.period.end === '2022-12-31',
    );
    expect(physical).toEqual({
      concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      members: { 'srt:ProductOrServiceAxis': 'ftm:PhysicalStoresMember' },
      period: { kind: 'duration', start: '2022-01-01', end: '2022-12-31' },
      unit: 'USD',
      decimals: -6,
      value: 19_000_000_000,
      contextId: 'FY2022_PhysicalStores',
      accession: '0009999917-23-000004',
    });
    expect(unreadable).toEqual([]);
  });

  it('when the entity as a whole reports revenue, then the fact has no members, one per year', () => {
    const totals = facts.filter((f) => Object.keys(f.members).length === 0);
    expect(totals.map((f) => [f.period.kind === 'duration' && f.period.end, f.value])).toEqual([
      ['2022-12-31', 500_000_000_000],
      ['2021-12-31', 470_000_000_000],
      ['2020-12-31', 380_000_000_000],
    ]);
  });

  it('when the cover page gives text facts, then only the numeric facts are read', () => {
    expect(new Set(facts.map((f) => f.concept))).toEqual(new Set(['us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax']));
    expect(facts).toHaveLength(2 * 8 + 3 + 1);
  });
});

describe('parseXbrlInstance on a constructed inline 10-K', () => {
  it('when figures are shown in millions, a total twice and an elimination in parentheses, then each is scaled, signed and read once', () => {
    const { facts, unreadable } = parseXbrlInstance(constructedInline(HARBOR_RESORTS), HARBOR_RESORTS.accession);
    expect(unreadable).toEqual([]);
    const fy2024 = facts.filter((f) => f.period.kind === 'duration' && f.period.end === '2024-12-31');
    expect(fy2024.map((f) => [f.contextId, f.value])).toEqual([
      ['FY2024', 2_000_000_000],
      ['FY2024_Casino', 1_300_000_000],
      ['FY2024_Rooms', 400_000_000],
      ['FY2024_FoodAndBeverage', 200_000_000],
      ['FY2024_EntertainmentRetailAndOther', 100_000_000],
      ['FY2024_HarborPointProperty_OperatingSegments', 1_250_000_000],
      ['FY2024_LakeshoreProperty_OperatingSegments', 800_000_000],
      ['FY2024_IntersegmentElimination', -50_000_000],
    ]);
    expect(fy2024[5]!.members).toEqual({
      'us-gaap:StatementBusinessSegmentsAxis': 'fhr:HarborPointPropertyMember',
      'srt:ConsolidationItemsAxis': 'us-gaap:OperatingSegmentsMember',
    });
  });

  it('when the document binds the standard taxonomies to other prefixes, then concepts, axes and members carry the usual ones', () => {
    const { facts } = parseXbrlInstance(constructedInline(BROOKSIDE_BEVERAGE, { aliases: { 'us-gaap': 'gaap', srt: 'product' } }), 'acc-0');
    expect(facts[1]).toMatchObject({
      concept: 'us-gaap:Revenues',
      members: { 'srt:ProductOrServiceAxis': 'fbb:ConcentrateOperationsMember' },
      value: 30_000_000_000,
    });
    expect(facts.filter((f) => f.members['us-gaap:StatementBusinessSegmentsAxis'])).toHaveLength(5);
  });
});

const MILLIONS = 'unitRef="usd" decimals="-6" scale="6" format="ixt:num-dot-decimal"';
/** An `ix:nonFraction` of a concept in a context, with the given attributes. */
const ix = (name: string, context: string, text: string, attributes = MILLIONS) =>
  `<ix:nonFraction name="${name}" contextRef="${context}" ${attributes}>${text}</ix:nonFraction>`;

describe('parseXbrlInstance on inline XBRL', () => {
  it('when a figure is shown in millions with a sign and grouped digits, then its value is scaled, signed and read', () => {
    const { facts } = parseXbrlInstance(
      inlineDocument(`<p>Revenue ${ix('gaap:Revenues', 'FY', '1,234.5')}
       Casino ${ix('gaap:Revenues', 'FY_casino', '<span>812</span>')}
       Loss (${ix('gaap:NetIncomeLoss', 'FY', '45', `sign="-" ${MILLIONS}`)})
       EPS ${ix('gaap:EarningsPerShareBasic', 'FY', '1.07', 'unitRef="usdPerShare" decimals="2" format="ixt:num-dot-decimal"')}</p>`),
      'acc-1',
    );
    expect(facts.map((f) => [f.concept, f.members, f.value, f.unit])).toEqual([
      ['us-gaap:Revenues', {}, 1_234_500_000, 'USD'],
      ['us-gaap:Revenues', { 'srt:ProductOrServiceAxis': 'co:CasinoMember' }, 812_000_000, 'USD'],
      ['us-gaap:NetIncomeLoss', {}, -45_000_000, 'USD'],
      ['us-gaap:EarningsPerShareBasic', {}, 1.07, 'USD/shares'],
    ]);
  });

  it('when a figure is zero written as a word or a dash, a count in words, or nil, then it reads as zero, the count, or not at all', () => {
    const { facts } = parseXbrlInstance(
      inlineDocument(`<p>costs were
       ${ix('gaap:BusinessCombinationAcquisitionRelatedCosts', 'FY', 'not', 'unitRef="usd" decimals="-8" format="ixt:fixed-zero"')} material;
       impairment ${ix('gaap:GoodwillImpairmentLoss', 'FY', '—', 'unitRef="usd" decimals="-6" scale="6" format="ixt:fixed-zero-dash"')};
       ${ix('gaap:NumberOfReportableSegments', 'FY', 'three', 'unitRef="usd" decimals="INF" format="ixt-sec:numwordsen"')} segments;
       <ix:nonFraction name="gaap:Revenues" contextRef="FY" unitRef="usd" xsi:nil="true"/></p>`),
      'acc-2',
    );
    expect(facts.map((f) => [f.concept, f.value, f.decimals])).toEqual([
      ['us-gaap:BusinessCombinationAcquisitionRelatedCosts', 0, -8],
      ['us-gaap:GoodwillImpairmentLoss', 0, -6],
      ['us-gaap:NumberOfReportableSegments', 3, null],
    ]);
  });

  it('when a figure is shown twice (statement and note), then the fact appears once', () => {
    const twice = ix('gaap:Revenues', 'FY', '100');
    expect(parseXbrlInstance(inlineDocument(`<p>${twice}</p><p>${twice}</p>`), 'acc-3').facts).toHaveLength(1);
  });

  it('when a figure cannot be read in its format, then it is listed as unreadable, not guessed', () => {
    const { facts, unreadable } = parseXbrlInstance(inlineDocument(`<p>${ix('gaap:Revenues', 'FY', 'n/a')}</p>`), 'acc-4');
    expect(facts).toEqual([]);
    expect(unreadable).toEqual([{ concept: 'us-gaap:Revenues', contextId: 'FY', text: 'n/a' }]);
  });

  it('when a context has a typed dimension and an instant, then the member is its value and the period an instant', () => {
    const { facts } = parseXbrlInstance(inlineDocument(`<p>${ix('gaap:LoansPayable', 'END_loan', '5')}</p>`), 'acc-5');
    expect(facts[0]).toMatchObject({ members: { 'co:LoanAxis': 'L-7' }, period: { kind: 'instant', instant: '2024-12-31' } });
  });
});

describe('parseXbrlInstance on bad input', () => {
  it('when the document is not well-formed, then the error names the accession and says so', () => {
    expect(() => parseXbrlInstance('<xbrl><context id="a"></xbrl>', '0000000001-24-000001')).toThrow(
      /XBRL instance 0000000001-24-000001: not well-formed XML/,
    );
  });

  it('when a fact names a context the document lacks, then the error names the fact and the context', () => {
    expect(() => parseXbrlInstance(inlineDocument(`<p>${ix('gaap:Revenues', 'nowhere', '5')}</p>`), 'acc-6')).toThrow(
      /fact us-gaap:Revenues names context "nowhere", which has no period/,
    );
  });
});

describe('parseXbrlInstance on a context without a dated period', () => {
  it('when a fact names a context whose period is "forever", then the error names the fact and says the context has no period', () => {
    const xml = `<xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:us-gaap="http://fasb.org/us-gaap/2024" xmlns:iso4217="http://www.xbrl.org/2003/iso4217">
      <context id="always"><entity><identifier scheme="http://www.sec.gov/CIK">0000000001</identifier></entity><period><forever/></period></context>
      <unit id="usd"><measure>iso4217:USD</measure></unit>
      <us-gaap:Revenues contextRef="always" unitRef="usd" decimals="0">5</us-gaap:Revenues></xbrl>`;
    expect(() => parseXbrlInstance(xml, 'acc-7')).toThrow(
      'XBRL instance acc-7: fact us-gaap:Revenues names context "always", which has no period',
    );
  });
});

describe('parseIxNumber', () => {
  it.each([
    ['1.234,5', 'ixt:num-comma-decimal', null, 1234.5],
    ['1 234', 'ixt:num-dot-decimal', '3', 1_234_000],
    ['twenty-one', 'ixt-sec:numwordsen', null, 21],
    ['none', 'ixt-sec:numwordsen', null, 0],
    ['-', 'ixt:fixed-zero-dash', '6', 0],
    ['12x', 'ixt:num-dot-decimal', null, Number.NaN],
    ['one hundred', 'ixt-sec:numwordsen', null, Number.NaN],
  ])('reads %s in format %s (scale %s) as %s', (text, format, scale, expected) => {
    expect(parseIxNumber(text, { format, scale, sign: null })).toBe(expected);
  });
});
