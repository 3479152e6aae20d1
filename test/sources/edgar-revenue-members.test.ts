import { describe, expect, it } from 'vitest';
import { disjointMembers, revenueByActivity } from '../../sources/edgar/revenue-activity.ts';
import { readRevenueMember } from '../../sources/edgar/revenue-members.ts';
import { parseXbrlInstance } from '../../sources/edgar/xbrl-instance.ts';
import {
  BEACON_STREAMING,
  BROOKSIDE_BEVERAGE,
  HARBOR_RESORTS,
  IRONCLAD_SYSTEMS,
  ORCHARD_DEVICES_10K,
  ORCHARD_DEVICES_10Q,
  QUARRY_CHIPS,
  RIVERBEND_RETAIL,
  TIDEWATER_MARKETPLACE,
} from '../support/xbrl-constructed.ts';
import { inlineDocument, plainInstance, type ConstructedFiling } from '../support/xbrl-documents.ts';

interface Expected {
  name: string;
  document: string;
  accession: string;
  period: { start: string; end: string } | null;
  /** Accounted share as the filing's own figures (US$ millions): numerator / denominator. */
  accounted: [number, number] | null;
  exposures: Array<{ activity: string; share: [number, number]; involvement: string }>;
}

const plain = (filing: ConstructedFiling) => ({ document: plainInstance(filing), accession: filing.accession });
const inline = (filing: ConstructedFiling, aliases?: { 'us-gaap': string; srt: string }) => ({
  document: inlineDocument(filing, { aliases }),
  accession: filing.accession,
});

/**
 * Each constructed filing's split (test/support/xbrl-constructed.ts, US$ millions), worked out
 * by hand. Members that name no line of business (generic product/service classes, regions,
 * "other") and lines that may hold a screened activity in an untold share (stores, grocery,
 * subscriptions, gaming, food and beverage) account for nothing.
 */
const FILINGS: Expected[] = [
  // 2024, the latest of three years: casino 1,300 + rooms 400 of 2,000; food and beverage 200 and
  // entertainment 100 are open. The property segments (1,250 + 800, before the elimination of 50)
  // pass the total, so that split is not read.
  {
    name: 'casino resort, inline 10-K',
    ...inline(HARBOR_RESORTS),
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [1_700, 2_000],
    exposures: [
      { activity: 'gambling', share: [1_300, 2_000], involvement: 'producer' },
      { activity: 'hotels_leisure', share: [400, 2_000], involvement: 'producer' },
    ],
  },
  // Combat systems 9,000 (weapons) + marine systems 6,000 of 19,200; global services 4,000 names a
  // region word; corporate 200 is not a segment; the product/service classes account for nothing.
  {
    name: 'defence contractor, plain 10-K',
    ...plain(IRONCLAD_SYSTEMS),
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [15_000, 19_200],
    exposures: [{ activity: 'weapons', share: [9_000, 19_200], involvement: 'producer' }],
  },
  // Concentrate 30,000 + finished product 17,000 = 47,000, the whole (the regions account for nothing).
  {
    name: 'beverage company, inline 10-K with its own prefixes for the standard taxonomies',
    ...inline(BROOKSIDE_BEVERAGE, { 'us-gaap': 'gaap', srt: 'product' }),
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [47_000, 47_000],
    exposures: [],
  },
  // Every product line is open; the home-market segment is open because its product lines include
  // grocery; international is a region and warehouse club a shop: 0 of 600,000, not unknown.
  {
    name: 'retailer, inline 10-K',
    ...inline(RIVERBEND_RETAIL),
    period: { start: '2024-02-01', end: '2025-01-31' },
    accounted: [0, 1],
    exposures: [],
  },
  // Segments 100,000 + 30,000 make up 130,000, but the product split (data center 110,000 set aside
  // as the sum of compute 95,000 and networking 15,000) shows gaming 12,000: 118,000 is accounted.
  {
    name: 'chip maker, plain 10-K',
    ...plain(QUARRY_CHIPS),
    period: { start: '2024-01-29', end: '2025-01-26' },
    accounted: [118_000, 130_000],
    exposures: [],
  },
  // The product class 300,000 is set aside as the sum of phone 200,000 + laptops 30,000 + tablets
  // 25,000 + wearables 45,000, which are clean; services 90,000 is the generic class: 300,000 of 390,000.
  {
    name: 'consumer electronics, inline 10-K',
    ...inline(ORCHARD_DEVICES_10K),
    period: { start: '2023-10-01', end: '2024-09-28' },
    accounted: [300_000, 390_000],
    exposures: [],
  },
  // Nine months to 2023-07-01 (the year to date before the quarter ending the same day):
  // 155,000 + 22,000 + 21,000 + 30,000 = 228,000 of 290,000.
  {
    name: 'consumer electronics, plain 10-Q',
    ...plain(ORCHARD_DEVICES_10Q),
    period: { start: '2022-09-25', end: '2023-07-01' },
    accounted: [228_000, 290_000],
    exposures: [],
  },
  // 2022: seller services 118,000 + cloud 75,000 of 500,000; stores, advertising, subscriptions and other are open.
  {
    name: 'marketplace and cloud, plain 10-K',
    ...plain(TIDEWATER_MARKETPLACE),
    period: { start: '2022-01-01', end: '2022-12-31' },
    accounted: [193_000, 500_000],
    exposures: [],
  },
  // Revenue in total and by country only: no split to read.
  { name: 'streaming company, plain 10-K', ...plain(BEACON_STREAMING), period: null, accounted: null, exposures: [] },
];

/** What the accounting should be: null, or the share (to 12 places), its date and a source naming the filing. */
function accountingMatcher(accounted: [number, number] | null, asOf: string | undefined, accession: string): unknown {
  if (!accounted) return null;
  return { share: expect.closeTo(accounted[0] / accounted[1], 12), asOf, sourceRef: expect.stringContaining(accession) };
}

describe('revenueByActivity on constructed filings', () => {
  it.each(FILINGS)(
    '$name: accounted share and activity shares as worked out by hand',
    ({ document, accession, period, accounted, exposures }) => {
      const result = revenueByActivity(parseXbrlInstance(document, accession));
      expect(result.period).toEqual(period);
      expect(result.accounted).toEqual(accountingMatcher(accounted, period?.end, accession));
      expect(result.exposures).toEqual(
        exposures.map((e) =>
          expect.objectContaining({
            activity: e.activity,
            involvement: e.involvement,
            evidence: 'filing_dimension',
            asOf: period?.end,
            revenueShare: expect.closeTo(e.share[0] / e.share[1], 12),
          }),
        ),
      );
    },
  );

  it('when a row is made, then its source names the accession, the period, the concept, the member and the context', () => {
    const [row] = revenueByActivity(parseXbrlInstance(plainInstance(IRONCLAD_SYSTEMS), IRONCLAD_SYSTEMS.accession)).exposures;
    expect(row!.sourceRef).toBe(
      'EDGAR 0009999912-25-000007 2024-01-01..2024-12-31: us-gaap:Revenues ' +
        'us-gaap:StatementBusinessSegmentsAxis=fis:CombatSystemsMember context FY2024_CombatSystems_OperatingSegments',
    );
  });

  it('when a segment with a clean name has a grocery line, then the segment reads open, naming that line', () => {
    const { members } = revenueByActivity(parseXbrlInstance(inlineDocument(RIVERBEND_RETAIL), RIVERBEND_RETAIL.accession));
    expect(members.map((m) => [m.members, m.share, m.reading])).toEqual([
      [
        { 'us-gaap:StatementBusinessSegmentsAxis': 'frr:HomeMarketSegmentMember' },
        expect.closeTo(400_000 / 600_000, 12),
        { kind: 'ambiguous', rule: 'its product lines include frr:GroceryMember', content: false },
      ],
      [
        { 'us-gaap:StatementBusinessSegmentsAxis': 'frr:InternationalMember' },
        0.2,
        expect.objectContaining({ kind: 'ambiguous', content: false }),
      ],
      [
        { 'us-gaap:StatementBusinessSegmentsAxis': 'frr:WarehouseClubMember' },
        expect.closeTo(80_000 / 600_000, 12),
        expect.objectContaining({ kind: 'ambiguous', content: true }),
      ],
    ]);
    expect(readRevenueMember('frr:GroceryMember')).toMatchObject({ kind: 'ambiguous', content: true });
  });

  it('when a parent line stands beside its children, then the children are read and the parent is set aside', () => {
    const chips = parseXbrlInstance(plainInstance(QUARRY_CHIPS), QUARRY_CHIPS.accession).facts;
    const productLines = chips.filter((f) => f.members['srt:ProductOrServiceAxis']);
    expect(disjointMembers(130_000_000_000, productLines)?.map((f) => f.members['srt:ProductOrServiceAxis'])).toEqual([
      'fqc:ComputeMember',
      'fqc:NetworkingMember',
      'fqc:GamingMember',
      'fqc:WorkstationGraphicsMember',
      'fqc:VehicleComputersMember',
      'fqc:OemAndOtherMember',
    ]);
    const orchard = revenueByActivity(parseXbrlInstance(inlineDocument(ORCHARD_DEVICES_10K), ORCHARD_DEVICES_10K.accession));
    expect(orchard.members.map((m) => [m.members['srt:ProductOrServiceAxis'], m.reading.kind])).toEqual([
      ['fod:PhoneMember', 'clean'],
      ['fod:LaptopsMember', 'clean'],
      ['fod:TabletsMember', 'clean'],
      ['fod:WearablesHomeandAccessoriesMember', 'clean'],
      ['us-gaap:ServiceMember', 'ambiguous'],
    ]);
  });
});

interface SyntheticFact {
  members?: Record<string, string>;
  value: number | string;
  start?: string;
  end?: string;
  concept?: string;
}

/** A plain XBRL instance holding the given revenue facts (US$), one context per fact. */
function instanceOf(facts: SyntheticFact[]): string {
  const contexts = facts.map((f, i) => {
    const members = Object.entries(f.members ?? {})
      .map(([axis, member]) => `<xbrldi:explicitMember dimension="${axis}">${member}</xbrldi:explicitMember>`)
      .join('');
    return `<context id="c${i}"><entity><identifier scheme="http://www.sec.gov/CIK">0000000009</identifier>${members ? `<segment>${members}</segment>` : ''}</entity>
      <period><startDate>${f.start ?? '2024-01-01'}</startDate><endDate>${f.end ?? '2024-12-31'}</endDate></period></context>`;
  });
  const values = facts.map(
    (f, i) =>
      `<${f.concept ?? 'us-gaap:Revenues'} contextRef="c${i}" unitRef="usd" decimals="0">${f.value}</${f.concept ?? 'us-gaap:Revenues'}>`,
  );
  return `<xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:us-gaap="http://fasb.org/us-gaap/2024"
    xmlns:srt="http://fasb.org/srt/2024" xmlns:co="http://example.com/2024" xmlns:iso4217="http://www.xbrl.org/2003/iso4217">
    ${contexts.join('\n')}<unit id="usd"><measure>iso4217:USD</measure></unit>${values.join('\n')}</xbrl>`;
}

const product = (member: string, value: number, more: Partial<SyntheticFact> = {}): SyntheticFact => ({
  members: { 'srt:ProductOrServiceAxis': member },
  value,
  ...more,
});
const segment = (member: string, value: number): SyntheticFact => ({ members: { 'us-gaap:StatementBusinessSegmentsAxis': member }, value });
const read = (facts: SyntheticFact[]) => revenueByActivity(parseXbrlInstance(instanceOf(facts), '0000000009-25-000001'));

describe('revenueByActivity at its edges', () => {
  it('when clean members add up to 97 % of revenue, then 97 % is accounted', () => {
    const result = read([{ value: 1000 }, product('co:SoftwareMember', 500), product('co:HardwareMember', 470)]);
    expect(result.accounted?.share).toBeCloseTo(0.97, 12);
    expect(result.exposures).toEqual([]);
  });

  it('when clean members add up to 100 % of revenue, then the whole is accounted', () => {
    expect(read([{ value: 1000 }, product('co:SoftwareMember', 500), product('co:HardwareMember', 500)]).accounted).toEqual({
      share: 1,
      asOf: '2024-12-31',
      sourceRef: 'EDGAR 0000000009-25-000001 us-gaap:Revenues by srt:ProductOrServiceAxis 2024-01-01..2024-12-31',
    });
  });

  it('when clean members pass the total by 0.2 % (rounding), then the whole is accounted, not more', () => {
    expect(read([{ value: 1000 }, product('co:FootwearMember', 950), product('co:ApparelMember', 52)]).accounted?.share).toBe(1);
  });

  it('when revenue is reported only in total, then no period is read and nothing is accounted', () => {
    expect(read([{ value: 1000 }, { value: 900, start: '2023-01-01', end: '2023-12-31' }])).toEqual({
      exposures: [],
      accounted: null,
      members: [],
      period: null,
    });
  });

  it('when a casino resort splits casino, rooms, food and beverage and entertainment, then casino is gambling and rooms hotels, and F&B and entertainment account for nothing', () => {
    const result = read([
      { value: 1000 },
      product('co:CasinoMember', 700),
      product('co:RoomsMember', 150),
      product('co:FoodAndBeverageMember', 100),
      product('co:EntertainmentRetailAndOtherMember', 50),
    ]);
    expect(result.exposures.map((e) => [e.activity, e.revenueShare, e.involvement, e.evidence])).toEqual([
      ['gambling', 0.7, 'producer', 'filing_dimension'],
      ['hotels_leisure', 0.15, 'producer', 'filing_dimension'],
    ]);
    expect(result.exposures[0]!.sourceRef).toBe(
      'EDGAR 0000000009-25-000001 2024-01-01..2024-12-31: us-gaap:Revenues srt:ProductOrServiceAxis=co:CasinoMember context c1',
    );
    expect(result.accounted?.share).toBeCloseTo(0.85, 12);
  });

  it('when the same revenue is split on two axes, then an activity takes the larger share, never the sum', () => {
    const result = read([
      { value: 1000 },
      product('co:CasinoMember', 600),
      product('co:HotelMember', 400),
      segment('co:MacauMember', 700),
      segment('co:LasVegasCasinoMember', 300),
    ]);
    expect(result.exposures.find((e) => e.activity === 'gambling')?.revenueShare).toBeCloseTo(0.6, 12);
    expect(result.accounted?.share).toBe(1);
  });

  it('when an axis carries a parent line beside its children, then the parent is set aside and nothing is counted twice', () => {
    const result = read([
      { value: 1000 },
      product('us-gaap:ProductMember', 600),
      product('co:PhonesMember', 400),
      product('co:TabletsMember', 200),
      product('us-gaap:ServiceMember', 400),
    ]);
    expect(result.members.map((m) => m.members['srt:ProductOrServiceAxis'])).toEqual([
      'co:PhonesMember',
      'co:TabletsMember',
      'us-gaap:ServiceMember',
    ]);
    expect(result.accounted?.share).toBeCloseTo(0.6, 12);
  });

  it('when members overlap in a way no rule untangles, then that split accounts for nothing', () => {
    const result = read([{ value: 1000 }, product('co:AlphaMember', 700), product('co:BetaMember', 650)]);
    expect(result.accounted).toBeNull();
  });

  it('when a 10-Q has the quarter and the year to date ending the same day, then the year to date is read', () => {
    const result = read([
      { value: 300, start: '2024-04-01', end: '2024-06-30' },
      product('co:CasinoMember', 300, { start: '2024-04-01', end: '2024-06-30' }),
      { value: 1000, start: '2024-01-01', end: '2024-06-30' },
      product('co:CasinoMember', 500, { start: '2024-01-01', end: '2024-06-30' }),
      product('co:SoftwareMember', 500, { start: '2024-01-01', end: '2024-06-30' }),
    ]);
    expect(result.period).toEqual({ start: '2024-01-01', end: '2024-06-30' });
    expect(result.exposures[0]!.revenueShare).toBeCloseTo(0.5, 12);
  });

  it('when a member is only reported for an earlier year, then it is not divided by this year’s revenue', () => {
    const result = read([
      { value: 1000 },
      product('co:SoftwareMember', 1000),
      { value: 800, start: '2023-01-01', end: '2023-12-31' },
      product('co:CasinoMember', 800, { start: '2023-01-01', end: '2023-12-31' }),
    ]);
    expect(result.exposures).toEqual([]);
    expect(result.accounted?.share).toBe(1);
  });

  it('when a segment is reconciled with eliminations, then the eliminations are not members', () => {
    const result = read([
      { value: 1000 },
      {
        members: {
          'us-gaap:StatementBusinessSegmentsAxis': 'co:SoftwareSegmentMember',
          'srt:ConsolidationItemsAxis': 'us-gaap:OperatingSegmentsMember',
        },
        value: 1100,
      },
      { members: { 'srt:ConsolidationItemsAxis': 'us-gaap:IntersegmentEliminationMember' }, value: -100 },
    ]);
    expect(result.accounted).toBeNull();
  });

  it('when no total revenue is reported for the period, then nothing is read', () => {
    expect(read([product('co:CasinoMember', 700)])).toEqual({ exposures: [], accounted: null, members: [], period: null });
  });
});

describe('readRevenueMember', () => {
  it.each([
    ['fhr:CasinoMember', 'activity', 'gambling'],
    ['co:SportsBettingMember', 'activity', 'gambling'],
    ['fbw:BeerMember', 'activity', 'alcohol'],
    ['fbw:WineAndSpiritsMember', 'activity', 'alcohol'],
    ['ftc:CombustibleTobaccoProductsMember', 'activity', 'tobacco'],
    ['ftc:OralTobaccoProductsMember', 'activity', 'tobacco'],
    ['ftc:ECigarettesMember', 'activity', 'vaping'],
    ['ffp:FreshPorkMember', 'activity', 'pork'],
    ['fis:CombatSystemsMember', 'activity', 'weapons'],
    ['fis:MissilesAndFireControlMember', 'activity', 'weapons'],
    ['fbk:DepositRelatedFeesMember', 'activity', 'conventional_finance'],
    ['fin:PremiumsEarnedMember', 'activity', 'conventional_insurance'],
    ['fho:HotelsMember', 'activity', 'hotels_leisure'],
    ['fmp:ThemeParksMember', 'activity', 'media_entertainment'],
    ['fcr:CoffeeMember', 'activity', 'coffee'],
    ['fmp:VideoStreamingAdvertisingMember', 'activity', 'media_entertainment'],
    ['fbb:ConcentrateOperationsMember', 'clean', null],
    ['fod:WearablesHomeandAccessoriesMember', 'clean', null],
    ['frl:PremiumMember', 'clean', null],
    ['fqc:GamingMember', 'ambiguous', null],
    ['fhr:FoodAndBeverageMember', 'ambiguous', null],
    ['frr:GroceryMember', 'ambiguous', null],
    ['us-gaap:ServiceMember', 'ambiguous', null],
    ['fod:IPhoneMember', 'clean', null],
    ['fal:CargoAndFreightMember', 'clean', null],
  ])('%s reads as %s %s', (member, kind, activity) => {
    expect(readRevenueMember(member)).toMatchObject(activity ? { kind, activity } : { kind });
  });
});
