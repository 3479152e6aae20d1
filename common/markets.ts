/**
 * The 46 markets faithscreen covers: real country exchange groups with their exchanges' ISO
 * 10383 MIC codes. `market_key` is the ISO 3166-1 alpha-2 code in lower case (the `{market}`
 * path value: `us`, `gb`, `sa`, …). `listingWeight` is a rough count of companies listed there
 * (main boards, secondary boards and, for the US, OTC lines); the sample universe uses it only
 * to size each market in realistic proportion. Live listing counts come from the universe.
 */

export interface Exchange {
  /** ISO 10383 market identifier code. */
  mic: string;
  name: string;
}

export interface Market {
  marketKey: string;
  slug: string;
  name: string;
  /** ISO 4217 code of the listings' currency. */
  currency: string;
  exchanges: readonly Exchange[];
  /** Approximate number of listed companies (relative sizing of the sample universe only). */
  listingWeight: number;
  /** Approximate units of `currency` per US dollar, to give sample amounts realistic magnitudes. */
  unitsPerUsd: number;
  /** Islamic-finance hub: the sample universe gives it more Shariah-themed funds. */
  islamicHub: boolean;
}

function market(
  marketKey: string,
  slug: string,
  name: string,
  currency: string,
  exchanges: Array<[string, string]>,
  listingWeight: number,
  unitsPerUsd: number,
  islamicHub = false,
): Market {
  return {
    marketKey,
    slug,
    name,
    currency,
    exchanges: exchanges.map(([mic, n]) => ({ mic, name: n })),
    listingWeight,
    unitsPerUsd,
    islamicHub,
  };
}

export const MARKETS: readonly Market[] = [
  market(
    'us',
    'united-states',
    'United States',
    'USD',
    [
      ['XNYS', 'New York Stock Exchange'],
      ['XNAS', 'Nasdaq'],
      ['XASE', 'NYSE American'],
      ['ARCX', 'NYSE Arca'],
      ['BATS', 'Cboe BZX Exchange'],
      ['OTCM', 'OTC Markets'],
    ],
    14_000,
    1,
  ),
  market(
    'ca',
    'canada',
    'Canada',
    'CAD',
    [
      ['XTSE', 'Toronto Stock Exchange'],
      ['XTSX', 'TSX Venture Exchange'],
      ['XCNQ', 'Canadian Securities Exchange'],
      ['NEOE', 'Cboe Canada'],
    ],
    3_500,
    1.36,
  ),
  market('mx', 'mexico', 'Mexico', 'MXN', [['XMEX', 'Bolsa Mexicana de Valores']], 140, 18),
  market('br', 'brazil', 'Brazil', 'BRL', [['BVMF', 'B3']], 400, 5.2),
  market('gb', 'united-kingdom', 'United Kingdom', 'GBP', [['XLON', 'London Stock Exchange']], 1_900, 0.79),
  market(
    'de',
    'germany',
    'Germany',
    'EUR',
    [
      ['XETR', 'Xetra'],
      ['XFRA', 'Frankfurt Stock Exchange'],
    ],
    800,
    0.92,
  ),
  market('fr', 'france', 'France', 'EUR', [['XPAR', 'Euronext Paris']], 800, 0.92),
  market('nl', 'netherlands', 'Netherlands', 'EUR', [['XAMS', 'Euronext Amsterdam']], 150, 0.92),
  market('ch', 'switzerland', 'Switzerland', 'CHF', [['XSWX', 'SIX Swiss Exchange']], 250, 0.89),
  market('it', 'italy', 'Italy', 'EUR', [['XMIL', 'Euronext Milan']], 420, 0.92),
  market('es', 'spain', 'Spain', 'EUR', [['XMAD', 'Bolsa de Madrid']], 350, 0.92),
  market('se', 'sweden', 'Sweden', 'SEK', [['XSTO', 'Nasdaq Stockholm']], 800, 10.5),
  market('no', 'norway', 'Norway', 'NOK', [['XOSL', 'Oslo Børs']], 330, 10.6),
  market('dk', 'denmark', 'Denmark', 'DKK', [['XCSE', 'Nasdaq Copenhagen']], 180, 6.9),
  market('fi', 'finland', 'Finland', 'EUR', [['XHEL', 'Nasdaq Helsinki']], 180, 0.92),
  market('be', 'belgium', 'Belgium', 'EUR', [['XBRU', 'Euronext Brussels']], 130, 0.92),
  market('pl', 'poland', 'Poland', 'PLN', [['XWAR', 'Warsaw Stock Exchange']], 780, 4),
  market('tr', 'turkey', 'Turkey', 'TRY', [['XIST', 'Borsa Istanbul']], 540, 32, true),
  market('il', 'israel', 'Israel', 'ILS', [['XTAE', 'Tel Aviv Stock Exchange']], 530, 3.7),
  market('sa', 'saudi-arabia', 'Saudi Arabia', 'SAR', [['XSAU', 'Saudi Exchange (Tadawul)']], 310, 3.75, true),
  market(
    'ae',
    'united-arab-emirates',
    'United Arab Emirates',
    'AED',
    [
      ['XDFM', 'Dubai Financial Market'],
      ['XADS', 'Abu Dhabi Securities Exchange'],
      ['DIFX', 'Nasdaq Dubai'],
    ],
    180,
    3.67,
    true,
  ),
  market('qa', 'qatar', 'Qatar', 'QAR', [['DSMD', 'Qatar Stock Exchange']], 53, 3.64, true),
  market('kw', 'kuwait', 'Kuwait', 'KWD', [['XKUW', 'Boursa Kuwait']], 140, 0.31, true),
  market('bh', 'bahrain', 'Bahrain', 'BHD', [['XBAH', 'Bahrain Bourse']], 42, 0.377, true),
  market('om', 'oman', 'Oman', 'OMR', [['XMUS', 'Muscat Stock Exchange']], 110, 0.385, true),
  market('eg', 'egypt', 'Egypt', 'EGP', [['XCAI', 'Egyptian Exchange']], 220, 48, true),
  market('jo', 'jordan', 'Jordan', 'JOD', [['XAMM', 'Amman Stock Exchange']], 170, 0.71, true),
  market('ma', 'morocco', 'Morocco', 'MAD', [['XCAS', 'Casablanca Stock Exchange']], 77, 10),
  market('za', 'south-africa', 'South Africa', 'ZAR', [['XJSE', 'Johannesburg Stock Exchange']], 280, 18.5),
  market('ng', 'nigeria', 'Nigeria', 'NGN', [['XNSA', 'Nigerian Exchange']], 150, 1_500, true),
  market('ke', 'kenya', 'Kenya', 'KES', [['XNAI', 'Nairobi Securities Exchange']], 60, 130),
  market(
    'in',
    'india',
    'India',
    'INR',
    [
      ['XNSE', 'National Stock Exchange of India'],
      ['XBOM', 'BSE'],
    ],
    5_500,
    83,
  ),
  market('pk', 'pakistan', 'Pakistan', 'PKR', [['XKAR', 'Pakistan Stock Exchange']], 520, 280, true),
  market('bd', 'bangladesh', 'Bangladesh', 'BDT', [['XDHA', 'Dhaka Stock Exchange']], 390, 110, true),
  market('my', 'malaysia', 'Malaysia', 'MYR', [['XKLS', 'Bursa Malaysia']], 1_000, 4.7, true),
  market('id', 'indonesia', 'Indonesia', 'IDR', [['XIDX', 'Indonesia Stock Exchange']], 900, 16_000, true),
  market('sg', 'singapore', 'Singapore', 'SGD', [['XSES', 'Singapore Exchange']], 640, 1.35),
  market('th', 'thailand', 'Thailand', 'THB', [['XBKK', 'Stock Exchange of Thailand']], 870, 36),
  market(
    'vn',
    'vietnam',
    'Vietnam',
    'VND',
    [
      ['XSTC', 'Ho Chi Minh City Stock Exchange'],
      ['HSTC', 'Hanoi Stock Exchange'],
    ],
    1_600,
    25_000,
  ),
  market('ph', 'philippines', 'Philippines', 'PHP', [['XPHS', 'Philippine Stock Exchange']], 280, 57),
  market(
    'cn',
    'china',
    'China (mainland)',
    'CNY',
    [
      ['XSHG', 'Shanghai Stock Exchange'],
      ['XSHE', 'Shenzhen Stock Exchange'],
    ],
    5_300,
    7.2,
  ),
  market('hk', 'hong-kong', 'Hong Kong', 'HKD', [['XHKG', 'Hong Kong Exchanges and Clearing']], 2_600, 7.8),
  market(
    'tw',
    'taiwan',
    'Taiwan',
    'TWD',
    [
      ['XTAI', 'Taiwan Stock Exchange'],
      ['ROCO', 'Taipei Exchange'],
    ],
    1_800,
    32,
  ),
  market(
    'kr',
    'south-korea',
    'South Korea',
    'KRW',
    [
      ['XKRX', 'Korea Exchange (KOSPI)'],
      ['XKOS', 'Korea Exchange (KOSDAQ)'],
    ],
    2_500,
    1_350,
  ),
  market('jp', 'japan', 'Japan', 'JPY', [['XTKS', 'Tokyo Stock Exchange']], 3_900, 150),
  market('au', 'australia', 'Australia', 'AUD', [['XASX', 'ASX']], 2_200, 1.5),
];

const BY_KEY = new Map(MARKETS.map((m) => [m.marketKey, m]));

/** Every market key, in the order of `MARKETS`. */
export const MARKET_KEYS: readonly string[] = MARKETS.map((m) => m.marketKey);

/** The market with this key, or undefined. */
export function findMarket(marketKey: string): Market | undefined {
  return BY_KEY.get(marketKey);
}

/** The market with this key; throws naming the valid keys when it is unknown. */
export function getMarket(marketKey: string): Market {
  const found = BY_KEY.get(marketKey);
  if (!found) throw new Error(`unknown market '${marketKey}': valid markets are ${MARKET_KEYS.join(', ')}`);
  return found;
}

/** The market whose exchanges include this MIC, or undefined. */
export function marketOfMic(mic: string): Market | undefined {
  return MARKETS.find((m) => m.exchanges.some((e) => e.mic === mic));
}
