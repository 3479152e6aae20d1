import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { revenueByActivity } from '../../sources/edgar/revenue-activity.ts';
import { readRevenueMember } from '../../sources/edgar/revenue-members.ts';
import { parseXbrlInstance } from '../../sources/edgar/xbrl-instance.ts';

const fixture = (name: string) => readFileSync(path.resolve('test/fixtures/xbrl', name), 'utf8');

interface Expected {
  file: string;
  accession: string;
  period: { start: string; end: string } | null;
  /** Accounted share as the filing's own figures (US$ millions): numerator / denominator. */
  accounted: [number, number] | null;
  exposures: Array<{ activity: string; share: [number, number]; involvement: string }>;
}

/**
 * Each company's revenue split as its filing reports it (US$ millions, from the fixture, which
 * holds the filing's facts unchanged; test/fixtures/xbrl/MANIFEST.md). Members that name no
 * line of business (generic product/service classes, regions, "other") and lines that may hold
 * a screened activity in an untold share (stores, grocery, subscriptions, gaming) account for
 * nothing.
 */
const COMPANIES: Expected[] = [
  // iPhone 201,183 + Mac 29,984 + iPad 26,694 + Wearables, Home and Accessories 37,005 of 391,035; Services 96,169 is the generic class.
  {
    file: 'aapl-10k-2024.xml',
    accession: '0000320193-24-000123',
    period: { start: '2023-10-01', end: '2024-09-28' },
    accounted: [294_866, 391_035],
    exposures: [],
  },
  // Nine months to 2023-07-01 (the year to date is preferred to the quarter ending the same day): 156,778 + 21,743 + 21,857 + 30,523 of 293,787.
  {
    file: 'aapl-10q-2023q3.xml',
    accession: '0000320193-23-000077',
    period: { start: '2022-09-25', end: '2023-07-01' },
    accounted: [230_901, 293_787],
    exposures: [],
  },
  // Third-party seller services 156,146 + AWS 107,556 of 637,959; online and physical stores, advertising, subscriptions and other are open.
  {
    file: 'amzn-10k-2024.xml',
    accession: 'AMZN 10-K filed 2025-02-07',
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [263_702, 637_959],
    exposures: [],
  },
  {
    file: 'amzn-10k-2022.xml',
    accession: '0001018724-23-000004',
    period: { start: '2022-01-01', end: '2022-12-31' },
    accounted: [197_812, 513_983],
    exposures: [],
  },
  // Defense, Space & Security 23,918 of 66,517 is a defence line; Commercial Airplanes 22,861 is clean; Global Services 19,954 names a region word.
  {
    file: 'ba-10k-2024.xml',
    accession: 'BA 10-K filed 2025-02-03',
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [46_779, 66_517],
    exposures: [{ activity: 'weapons', share: [23_918, 66_517], involvement: 'producer' }],
  },
  // YouTube ads 36,147 of 350,018 is media; Google Network 30,359 is clean; search "& other" and subscriptions/devices are open.
  {
    file: 'googl-10k-2024.xml',
    accession: 'GOOGL 10-K filed 2025-02-05',
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [66_506, 350_018],
    exposures: [{ activity: 'media_entertainment', share: [36_147, 350_018], involvement: 'producer' }],
  },
  // Concentrate operations 27,725 + finished product operations 19,336 = 47,061, the whole.
  {
    file: 'ko-10k-2024.xml',
    accession: 'KO 10-K filed 2025-02-20',
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [47_061, 47_061],
    exposures: [],
  },
  // Payment network 17,335 + value-added services and solutions 10,832 = 28,167, the whole.
  {
    file: 'ma-10k-2024.xml',
    accession: 'MA 10-K filed 2025-02-12',
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [28_167, 28_167],
    exposures: [],
  },
  // Reality Labs 2,146 of 164,501; Family of Apps is advertising, which may carry entertainment content.
  {
    file: 'meta-10k-2024.xml',
    accession: 'META 10-K filed 2025-01-30',
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [2_146, 164_501],
    exposures: [],
  },
  // NIKE Brand 44,714 + Converse 1,692 pass the total by 0.2 % (rounding): the whole.
  {
    file: 'nke-10k-2025.xml',
    accession: 'NKE 10-K filed 2025-07-17',
    period: { start: '2024-06-01', end: '2025-05-31' },
    accounted: [1, 1],
    exposures: [],
  },
  // Segments add up to 130,497, but the product split shows Gaming 11,350 (video games, or wagering: the name does not say).
  {
    file: 'nvda-10k-2025.xml',
    accession: '0001045810-25-000023',
    period: { start: '2024-01-29', end: '2025-01-26' },
    accounted: [119_147, 130_497],
    exposures: [],
  },
  // Five segments 14,964 + 6,662 + 11,998 + 29,617 + 20,248 of 84,284 (corporate 794 is not a segment).
  {
    file: 'pg-10k-2025.xml',
    accession: 'PG 10-K filed 2025-08-04',
    period: { start: '2024-07-01', end: '2025-06-30' },
    accounted: [83_489, 84_284],
    exposures: [],
  },
  // Automotive 87,604 + energy generation and storage 10,086 = 97,690, the whole.
  {
    file: 'tsla-10k-2024.xml',
    accession: 'TSLA 10-K filed 2025-01-30',
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [97_690, 97_690],
    exposures: [],
  },
  // Bulk 7,207 + industrial 8,440 + premium (intermodal, not insurance) 7,164 + accessorial 554 of 24,250.
  {
    file: 'unp-10k-2024.xml',
    accession: 'UNP 10-K filed 2025-02-07',
    period: { start: '2024-01-01', end: '2024-12-31' },
    accounted: [23_365, 24_250],
    exposures: [],
  },
  // Grocery, general merchandise, health and wellness, fuel and other: every line may hold alcohol, tobacco, pork or contraceptives.
  {
    file: 'wmt-10k-2025.xml',
    accession: '0000104169-25-000021',
    period: { start: '2024-02-01', end: '2025-01-31' },
    accounted: [0, 1],
    exposures: [],
  },
  // Netflix tags no revenue split at all.
  { file: 'nflx-10k-2024.xml', accession: 'NFLX 10-K filed 2025-01-27', period: null, accounted: null, exposures: [] },
];

/** What the accounting should be: null, or the share (to 12 places), its date and a source naming the filing. */
function accountingMatcher(accounted: [number, number] | null, asOf: string | undefined, accession: string): unknown {
  if (!accounted) return null;
  return { share: expect.closeTo(accounted[0] / accounted[1], 12), asOf, sourceRef: expect.stringContaining(accession) };
}

describe('revenueByActivity on real filings', () => {
  it.each(COMPANIES)(
    '$file: accounted share and activity shares as the filing reports them',
    ({ file, accession, period, accounted, exposures }) => {
      const result = revenueByActivity(parseXbrlInstance(fixture(file), accession));
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
    const [row] = revenueByActivity(parseXbrlInstance(fixture('ba-10k-2024.xml'), 'BA 10-K filed 2025-02-03')).exposures;
    expect(row!.sourceRef).toBe(
      'EDGAR BA 10-K filed 2025-02-03 2024-01-01..2024-12-31: us-gaap:Revenues ' +
        'us-gaap:StatementBusinessSegmentsAxis=ba:BoeingDefenseSpaceSecuritySegmentMember context c-69',
    );
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
    ['lvs:CasinoMember', 'activity', 'gambling'],
    ['co:SportsBettingMember', 'activity', 'gambling'],
    ['bud:BeerMember', 'activity', 'alcohol'],
    ['stz:WineAndSpiritsMember', 'activity', 'alcohol'],
    ['pm:CombustibleTobaccoProductsMember', 'activity', 'tobacco'],
    ['mo:OralTobaccoProductsMember', 'activity', 'tobacco'],
    ['mo:ECigarettesMember', 'activity', 'vaping'],
    ['sfd:FreshPorkMember', 'activity', 'pork'],
    ['gd:CombatSystemsMember', 'activity', 'weapons'],
    ['lmt:MissilesAndFireControlMember', 'activity', 'weapons'],
    ['wfc:DepositRelatedFeesMember', 'activity', 'conventional_finance'],
    ['trv:PremiumsEarnedMember', 'activity', 'conventional_insurance'],
    ['mar:HotelsMember', 'activity', 'hotels_leisure'],
    ['dis:ThemeParksMember', 'activity', 'media_entertainment'],
    ['sbux:CoffeeMember', 'activity', 'coffee'],
    ['unp:PremiumMember', 'clean', null],
    ['nvda:GamingMember', 'ambiguous', null],
    ['mgm:FoodAndBeverageMember', 'ambiguous', null],
    ['wmt:GroceryMember', 'ambiguous', null],
    ['us-gaap:ServiceMember', 'ambiguous', null],
    ['aapl:IPhoneMember', 'clean', null],
    ['aal:CargoAndFreightMember', 'clean', null],
  ])('%s reads as %s %s', (member, kind, activity) => {
    expect(readRevenueMember(member)).toMatchObject(activity ? { kind, activity } : { kind });
  });
});
