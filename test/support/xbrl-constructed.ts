/**
 * Constructed XBRL filings: synthetic, written by hand for the EDGAR instance tests. The
 * companies, CIKs, accession numbers, members and figures are fictional; no fact is taken from
 * a real filing. Each filing is shaped like the disclosures ASC 606 and ASC 280 produce
 * (revenue by product or service, by segment, by segment and product), so together they
 * exercise the parser (`parseXbrlInstance`, plain and inline) and the revenue-member reading
 * (`revenueByActivity`): what each one is for is said above it. Real instances come from
 * `faithscreen fetch edgar` at run time. Figures are US$ millions.
 */
import type { ConstructedFact, ConstructedFiling } from './xbrl-documents.ts';

const PRODUCT = 'srt:ProductOrServiceAxis';
const SEGMENT = 'us-gaap:StatementBusinessSegmentsAxis';
const CONSOLIDATION = 'srt:ConsolidationItemsAxis';

const total = (period: string, millions: number): ConstructedFact => ({ period, millions });
const product = (member: string, period: string, millions: number): ConstructedFact => ({
  members: { [PRODUCT]: member },
  period,
  millions,
});
const segment = (member: string, period: string, millions: number): ConstructedFact => ({
  members: { [SEGMENT]: member },
  period,
  millions,
});
/** A segment's own revenue, tagged beside the consolidation member as segment reconciliations are. */
const operatingSegment = (member: string, period: string, millions: number): ConstructedFact => ({
  members: { [SEGMENT]: member, [CONSOLIDATION]: 'us-gaap:OperatingSegmentsMember' },
  period,
  millions,
});
const consolidation = (member: string, period: string, millions: number): ConstructedFact => ({
  members: { [CONSOLIDATION]: member },
  period,
  millions,
});
const segmentProduct = (seg: string, line: string, period: string, millions: number): ConstructedFact => ({
  members: { [SEGMENT]: seg, [PRODUCT]: line },
  period,
  millions,
});

const CALENDAR = {
  FY2024: { start: '2024-01-01', end: '2024-12-31' },
  FY2023: { start: '2023-01-01', end: '2023-12-31' },
  FY2022: { start: '2022-01-01', end: '2022-12-31' },
};

/**
 * A casino resort, three years (inline): casino, rooms, food and beverage, entertainment on the
 * product axis; two properties on the segment axis, reported before an intersegment
 * elimination shown in parentheses (`sign="-"`), so the segments pass the total.
 */
export const HARBOR_RESORTS: ConstructedFiling = {
  company: 'Fictional Harbor Resorts Inc.',
  cik: '0009999911',
  accession: '0009999911-25-000003',
  form: '10-K',
  prefix: 'fhr',
  concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
  periods: CALENDAR,
  facts: [
    ...(
      [
        ['FY2024', 2_000, 1_300, 400, 200, 100],
        ['FY2023', 1_800, 1_150, 350, 200, 100],
        ['FY2022', 1_500, 950, 300, 170, 80],
      ] as const
    ).flatMap(([p, all, casino, rooms, food, other]) => [
      total(p, all),
      product('fhr:CasinoMember', p, casino),
      product('fhr:RoomsMember', p, rooms),
      product('fhr:FoodAndBeverageMember', p, food),
      product('fhr:EntertainmentRetailAndOtherMember', p, other),
    ]),
    operatingSegment('fhr:HarborPointPropertyMember', 'FY2024', 1_250),
    operatingSegment('fhr:LakeshorePropertyMember', 'FY2024', 800),
    consolidation('us-gaap:IntersegmentEliminationMember', 'FY2024', -50),
  ],
};

/**
 * A defence contractor (plain): a combat-systems segment beside marine systems and a "global
 * services" segment (a region word); corporate revenue outside the segments; a product/service
 * split into the generic classes only.
 */
export const IRONCLAD_SYSTEMS: ConstructedFiling = {
  company: 'Fictional Ironclad Systems Corp.',
  cik: '0009999912',
  accession: '0009999912-25-000007',
  form: '10-K',
  prefix: 'fis',
  concept: 'us-gaap:Revenues',
  periods: { FY2024: CALENDAR.FY2024 },
  facts: [
    total('FY2024', 19_200),
    operatingSegment('fis:CombatSystemsMember', 'FY2024', 9_000),
    operatingSegment('fis:MarineSystemsMember', 'FY2024', 6_000),
    operatingSegment('fis:GlobalServicesMember', 'FY2024', 4_000),
    consolidation('us-gaap:CorporateNonSegmentMember', 'FY2024', 200),
    product('us-gaap:ProductMember', 'FY2024', 12_000),
    product('us-gaap:ServiceMember', 'FY2024', 7_200),
  ],
};

/**
 * A beverage company (inline, standard taxonomies bound to the prefixes `gaap` and `product`):
 * concentrate and finished-product operations make up the whole of revenue; the segments are
 * regions and one clean bottling segment.
 */
export const BROOKSIDE_BEVERAGE: ConstructedFiling = {
  company: 'Fictional Brookside Beverage Co.',
  cik: '0009999913',
  accession: '0009999913-25-000002',
  form: '10-K',
  prefix: 'fbb',
  concept: 'us-gaap:Revenues',
  periods: { FY2024: CALENDAR.FY2024 },
  facts: [
    total('FY2024', 47_000),
    product('fbb:ConcentrateOperationsMember', 'FY2024', 30_000),
    product('fbb:FinishedProductOperationsMember', 'FY2024', 17_000),
    segment('fbb:NorthAmericaMember', 'FY2024', 20_000),
    segment('fbb:EuropeMiddleEastAndAfricaMember', 'FY2024', 8_000),
    segment('fbb:LatinAmericaMember', 'FY2024', 6_000),
    segment('fbb:AsiaPacificMember', 'FY2024', 5_000),
    segment('fbb:BottlingInvestmentsMember', 'FY2024', 8_000),
  ],
};

/**
 * A retailer, fiscal year to 31 January (inline): grocery, general merchandise, health and
 * wellness, fuel and other; a home-market segment whose name is clean but whose product lines
 * (segment × product) include grocery; an international and a warehouse-club segment. The
 * segment facts come first, so the segment split is the one reported when all account for nothing.
 */
export const RIVERBEND_RETAIL: ConstructedFiling = {
  company: 'Fictional Riverbend Retail Inc.',
  cik: '0009999914',
  accession: '0009999914-25-000011',
  form: '10-K',
  prefix: 'frr',
  concept: 'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax',
  periods: { FY2025: { start: '2024-02-01', end: '2025-01-31' }, FY2024: { start: '2023-02-01', end: '2024-01-31' } },
  facts: [
    total('FY2025', 600_000),
    segment('frr:HomeMarketSegmentMember', 'FY2025', 400_000),
    segment('frr:InternationalMember', 'FY2025', 120_000),
    segment('frr:WarehouseClubMember', 'FY2025', 80_000),
    product('frr:GroceryMember', 'FY2025', 300_000),
    product('frr:GeneralMerchandiseMember', 'FY2025', 180_000),
    product('frr:HealthAndWellnessMember', 'FY2025', 70_000),
    product('frr:FuelAndOtherMember', 'FY2025', 50_000),
    segmentProduct('frr:HomeMarketSegmentMember', 'frr:HealthAndWellnessMember', 'FY2025', 50_000),
    segmentProduct('frr:HomeMarketSegmentMember', 'frr:GeneralMerchandiseMember', 'FY2025', 130_000),
    segmentProduct('frr:HomeMarketSegmentMember', 'frr:FuelAndOtherMember', 'FY2025', 20_000),
    segmentProduct('frr:HomeMarketSegmentMember', 'frr:GroceryMember', 'FY2025', 200_000),
    total('FY2024', 580_000),
    segment('frr:HomeMarketSegmentMember', 'FY2024', 390_000),
  ],
};

/**
 * A chip maker, 52-week fiscal year (plain): two segments that make up the whole; a product
 * split with a data-center parent line beside its compute and networking children, and a
 * "gaming" line (video games or wagering: the name does not say).
 */
export const QUARRY_CHIPS: ConstructedFiling = {
  company: 'Fictional Quarry Chips Corp.',
  cik: '0009999915',
  accession: '0009999915-25-000023',
  form: '10-K',
  prefix: 'fqc',
  concept: 'us-gaap:Revenues',
  periods: { FY2025: { start: '2024-01-29', end: '2025-01-26' } },
  facts: [
    total('FY2025', 130_000),
    segment('fqc:ComputeAndNetworkingMember', 'FY2025', 100_000),
    segment('fqc:GraphicsMember', 'FY2025', 30_000),
    product('fqc:DataCenterMember', 'FY2025', 110_000),
    product('fqc:ComputeMember', 'FY2025', 95_000),
    product('fqc:NetworkingMember', 'FY2025', 15_000),
    product('fqc:GamingMember', 'FY2025', 12_000),
    product('fqc:WorkstationGraphicsMember', 'FY2025', 2_000),
    product('fqc:VehicleComputersMember', 'FY2025', 1_500),
    product('fqc:OemAndOtherMember', 'FY2025', 4_500),
  ],
};

/**
 * A consumer-electronics maker's 10-K (inline): the generic product class beside the product
 * lines it is the sum of (one extension name glues a lower-case "and"), the generic service
 * class, and segments that are regions.
 */
export const ORCHARD_DEVICES_10K: ConstructedFiling = {
  company: 'Fictional Orchard Devices Inc.',
  cik: '0009999916',
  accession: '0009999916-24-000040',
  form: '10-K',
  prefix: 'fod',
  concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
  periods: { FY2024: { start: '2023-10-01', end: '2024-09-28' } },
  facts: [
    total('FY2024', 390_000),
    product('us-gaap:ProductMember', 'FY2024', 300_000),
    product('fod:PhoneMember', 'FY2024', 200_000),
    product('fod:LaptopsMember', 'FY2024', 30_000),
    product('fod:TabletsMember', 'FY2024', 25_000),
    product('fod:WearablesHomeandAccessoriesMember', 'FY2024', 45_000),
    product('us-gaap:ServiceMember', 'FY2024', 90_000),
    segment('fod:AmericasSegmentMember', 'FY2024', 160_000),
    segment('fod:EuropeSegmentMember', 'FY2024', 100_000),
    segment('fod:GreaterChinaSegmentMember', 'FY2024', 65_000),
    segment('fod:JapanSegmentMember', 'FY2024', 25_000),
    segment('fod:RestOfAsiaPacificSegmentMember', 'FY2024', 40_000),
  ],
};

/** The same maker's third-quarter 10-Q (plain): the quarter and the nine months ending the same day, with last year's comparatives. */
export const ORCHARD_DEVICES_10Q: ConstructedFiling = {
  company: 'Fictional Orchard Devices Inc.',
  cik: '0009999916',
  accession: '0009999916-23-000031',
  form: '10-Q',
  prefix: 'fod',
  concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
  periods: {
    Q3: { start: '2023-04-02', end: '2023-07-01' },
    YTD: { start: '2022-09-25', end: '2023-07-01' },
    Q3_prior: { start: '2022-03-27', end: '2022-06-25' },
    YTD_prior: { start: '2021-09-26', end: '2022-06-25' },
  },
  facts: (
    [
      ['Q3', 80_000, 40_000, 7_000, 6_000, 8_000, 19_000],
      ['YTD', 290_000, 155_000, 22_000, 21_000, 30_000, 62_000],
      ['Q3_prior', 83_000, 41_000, 7_500, 7_000, 8_500, 19_000],
      ['YTD_prior', 300_000, 165_000, 25_000, 22_000, 31_000, 57_000],
    ] as const
  ).flatMap(([p, all, phone, laptops, tablets, wearables, services]) => [
    total(p, all),
    product('fod:PhoneMember', p, phone),
    product('fod:LaptopsMember', p, laptops),
    product('fod:TabletsMember', p, tablets),
    product('fod:WearablesHomeandAccessoriesMember', p, wearables),
    product('us-gaap:ServiceMember', p, services),
  ]),
};

/**
 * An online marketplace with a cloud business, three years (plain): stores, advertising and
 * subscriptions are open lines; seller services and cloud services are clean; the segments are
 * two regions and the cloud.
 */
export const TIDEWATER_MARKETPLACE: ConstructedFiling = {
  company: 'Fictional Tidewater Marketplace Inc.',
  cik: '0009999917',
  accession: '0009999917-23-000004',
  form: '10-K',
  prefix: 'ftm',
  concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
  periods: {
    FY2022: CALENDAR.FY2022,
    FY2021: { start: '2021-01-01', end: '2021-12-31' },
    FY2020: { start: '2020-01-01', end: '2020-12-31' },
  },
  facts: [
    ...(
      [
        ['FY2022', 500_000, 210_000, 19_000, 118_000, 38_000, 35_000, 75_000, 5_000],
        ['FY2021', 470_000, 220_000, 17_000, 103_000, 31_000, 32_000, 62_000, 5_000],
      ] as const
    ).flatMap(([p, all, online, physical, sellers, ads, subscriptions, cloud, other]) => [
      total(p, all),
      product('ftm:OnlineStoresMember', p, online),
      product('ftm:PhysicalStoresMember', p, physical),
      product('ftm:ThirdPartySellerServicesMember', p, sellers),
      product('ftm:AdvertisingServicesMember', p, ads),
      product('ftm:SubscriptionServicesMember', p, subscriptions),
      product('ftm:CloudServicesMember', p, cloud),
      product('ftm:OtherMember', p, other),
    ]),
    segment('ftm:NorthAmericaSegmentMember', 'FY2022', 300_000),
    segment('ftm:InternationalSegmentMember', 'FY2022', 125_000),
    segment('ftm:CloudServicesSegmentMember', 'FY2022', 75_000),
    total('FY2020', 380_000),
  ],
};

/** A streaming company that tags its revenue only in total and by country, an axis not read for activities. */
export const BEACON_STREAMING: ConstructedFiling = {
  company: 'Fictional Beacon Streaming Inc.',
  cik: '0009999918',
  accession: '0009999918-25-000009',
  form: '10-K',
  prefix: 'fbs',
  concept: 'us-gaap:Revenues',
  periods: { FY2024: CALENDAR.FY2024, FY2023: CALENDAR.FY2023 },
  facts: [
    total('FY2024', 39_000),
    total('FY2023', 33_700),
    { members: { 'srt:StatementGeographicalAxis': 'fbs:UnitedStatesAndCanadaMember' }, period: 'FY2024', millions: 17_000 },
  ],
};
