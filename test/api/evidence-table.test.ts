/**
 * No verdict passes on thin evidence: each case is a crafted company delivered through the
 * vendor feed, screened on 2025-06-30 by the pipelines' chunk work and read back over real HTTP
 * from the API. Every company is otherwise clean (healthy ratios, a fresh filing, a price on the
 * screening date), so the verdict under test comes from the one thing its case changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARIAH_FRAMEWORK_IDS, type FrameworkId } from '../../engine/index.ts';
import { FEED_TABLES } from '../../sources/feed/feed-contract.ts';
import { serveEvidenceLake, type CraftedCompany, type Json, type ServedEvidenceLake } from './support/evidence-lake.ts';

const DATE = '2025-06-30';
const FRESH = '2025-03-31';
const reviewedClean = [{ asOf: FRESH, activity: 'none', share: 0 }];

const COMPANIES: CraftedCompany[] = [
  { ticker: 'QVSW', name: 'Fictional Lumaro Software Inc.', sic: '7372', exposures: reviewedClean },
  { ticker: 'QVCF', name: 'Fictional Brewline Cafes Inc.', sic: '5810' },
  { ticker: 'QVRO', name: 'Fictional Dunmore Roasters Inc.', sic: '2095' },
  { ticker: 'QVDF', name: 'Fictional Aegirn Guidance Systems Inc.', sic: '3812' },
  { ticker: 'QVGR', name: 'Fictional Pellow Grocers Inc.', sic: '5411' },
  {
    ticker: 'QVOL',
    name: 'Fictional Ostrand Holdings Inc.',
    sic: '',
    exposures: [{ asOf: '2014-03-31', activity: 'media_entertainment', share: 0.02 }],
  },
  {
    ticker: 'QVRS',
    name: 'Fictional Tavola Restaurants Inc.',
    sic: '5812',
    // An admissions figure from the company's own filings: it reports one activity, it reviews none of the others.
    exposures: [{ asOf: FRESH, activity: 'media_entertainment', share: 0.02, evidence: 'filing_concept' }],
  },
  {
    ticker: 'QVSP',
    name: 'Fictional Quiet Ledger Inc.',
    sic: '7372',
    exposures: reviewedClean,
    pricesEndMonth: '2024-11',
    lastPriceOn: '2024-12-12',
  },
  {
    ticker: 'QVAD',
    name: 'Fictional Velvet Reel Studios Inc.',
    sic: '7812',
    exposures: [{ asOf: FRESH, activity: 'adult_entertainment', share: 0.6, involvement: 'producer' }],
  },
  { ticker: 'QVIL', name: 'Fictional Carmel Circuits Ltd.', sic: '7372', domicile: 'IL', exposures: reviewedClean },
  { market: 'il', ticker: 'QVIL', name: 'Fictional Carmel Circuits Ltd.', sic: '7372', domicile: 'IL', exposures: reviewedClean },
  {
    ticker: 'QVCT',
    name: 'Fictional Norrow Pharmaceuticals Inc.',
    sic: '2834',
    exposures: [{ asOf: FRESH, activity: 'contraceptives', share: 0.01, involvement: 'producer' }],
  },
  {
    ticker: 'QVTB',
    name: 'Fictional Corner Smoke Shops Inc.',
    sic: '5993',
    exposures: [{ asOf: FRESH, activity: 'tobacco', share: 0.08, involvement: 'retailer' }],
  },
  { ticker: 'QVPL', name: 'Fictional Harlan Poultry Inc.', sic: '2015' },
  { ticker: 'QVCS', name: 'Fictional Stillwater Software Inc.', sic: '7372', exposures: reviewedClean, cash: 2_000_000_000 },
  {
    ticker: 'QVBK',
    name: 'Fictional Granite Savings Bank',
    sic: '6022',
    exposures: [{ asOf: FRESH, activity: 'conventional_finance', share: 0.9 }],
  },
  { ticker: 'QVBC', name: 'Fictional Granite Trust Bank', sic: '6022' },
  {
    ticker: 'QVCR',
    name: 'Fictional Ember Coffee Roasting Inc.',
    sic: '2095',
    exposures: [{ asOf: FRESH, activity: 'coffee', share: 0.8, involvement: 'producer' }],
  },
];

const isBusiness = (r: Json): boolean => typeof r.code === 'string' && r.code.includes('.business');

describe('evidence behind every pass, through the API (screened 2025-06-30)', () => {
  let lake: ServedEvidenceLake;
  const report = async (ticker: string, market = 'us'): Promise<Json> => (await lake.verdicts(market, ticker)).frameworks as Json;
  const status = async (ticker: string, id: FrameworkId, market = 'us'): Promise<string> =>
    String((await report(ticker, market))[id].status);
  /** Asserts the framework is questionable and one of its business reasons is questionable with that doubt. */
  const expectDoubt = async (ticker: string, id: FrameworkId, doubt: string): Promise<void> => {
    const framework = (await report(ticker))[id];
    expect(framework.status, `${ticker} ${id}: ${JSON.stringify(framework.reasons)}`).toBe('questionable');
    const doubted = framework.reasons.filter((r: Json) => r.result === 'questionable' && r.doubt === doubt);
    expect(
      doubted.length,
      `${ticker} ${id}: a questionable reason with doubt ${doubt} in ${JSON.stringify(framework.reasons)}`,
    ).toBeGreaterThan(0);
  };

  beforeAll(async () => {
    lake = await serveEvidenceLake(COMPANIES, DATE);
  }, 300_000);

  afterAll(() => lake?.close());

  it('when a software company has a fresh reviewed row and healthy ratios, then it is compliant under every Shariah methodology, BRI, USCCB and LDS', async () => {
    for (const id of [...SHARIAH_FRAMEWORK_IDS, 'christian_bri', 'catholic_usccb', 'lds_mormon'] as const)
      expect(await status('QVSW', id), id).toBe('compliant');
  });

  it('when a coffee-shop chain (SIC 5810) has no exposure rows, then LDS is questionable on ambiguous evidence, not compliant', async () => {
    await expectDoubt('QVCF', 'lds_mormon', 'ambiguous_evidence');
  });

  it('when a coffee roaster (SIC 2095) has no exposure rows, then LDS is not compliant', async () => {
    expect(['questionable', 'non_compliant']).toContain(await status('QVRO', 'lds_mormon'));
  });

  it('when a defence-electronics maker (SIC 3812) has no exposure rows, then FTSE, DJIM and MSCI are questionable on ambiguous evidence', async () => {
    for (const id of ['shariah_ftse', 'shariah_djim', 'shariah_msci'] as const) await expectDoubt('QVDF', id, 'ambiguous_evidence');
  });

  it('when a grocer (SIC 5411) has no exposure rows, then every framework screening alcohol, tobacco or pork is questionable', async () => {
    for (const id of [...SHARIAH_FRAMEWORK_IDS, 'christian_bri', 'lds_mormon'] as const)
      await expectDoubt('QVGR', id, 'ambiguous_evidence');
  });

  it('when the only evidence is a vendor row from 2014, then the screens that rest on it are insufficient_data saying what was found and how old', async () => {
    const frameworks = await report('QVOL');
    for (const id of ['shariah_aaoifi', 'shariah_sp', 'christian_bri', 'catholic_usccb', 'jewish_halakhic', 'lds_mormon'] as const) {
      expect(frameworks[id].status, id).toBe('insufficient_data');
      const expired = frameworks[id].reasons.filter((r: Json) => r.result === 'insufficient_data' && /2014/.test(r.message));
      expect(expired.length, `${id}: a reason naming the 2014 row in ${JSON.stringify(frameworks[id].reasons)}`).toBeGreaterThan(0);
      expect(expired[0].message, id).toMatch(/\d+ (years?|months?)|old|expired/i);
    }
  });

  it("when a restaurant (SIC 5812) has only a 2% admissions row, then DJIM and FTSE keep the industry's doubt beside the row", async () => {
    for (const id of ['shariah_djim', 'shariah_ftse'] as const) await expectDoubt('QVRS', id, 'ambiguous_evidence');
  });

  it('when month-end prices stop seven months before the screen (spot 200 days old), then DJIM is insufficient_data naming the missing months', async () => {
    const djim = (await report('QVSP')).shariah_djim;
    expect(djim.status).toBe('insufficient_data');
    const missing = djim.reasons.filter(
      (r: Json) => r.result === 'insufficient_data' && /2025-0[1-6]|(January|February|March|April|May|June) 2025/.test(r.message),
    );
    expect(missing.length, JSON.stringify(djim.reasons)).toBeGreaterThan(0);
  });

  it('when a company produces pornography (60% of revenue), then the halakhic screen is non_compliant', async () => {
    expect(await status('QVAD', 'jewish_halakhic')).toBe('non_compliant');
  });

  it('when one Israeli-incorporated company is listed on Tel Aviv and on NASDAQ, then both listings get the same halakhic verdict', async () => {
    // The feed's listings carry the issuer's country of incorporation; control is presumed from it, not from the exchange.
    expect(FEED_TABLES.find((t) => t.table === 'listings')!.columns.map((c) => c.name)).toContain('domicile');
    expect(await status('QVIL', 'jewish_halakhic', 'us')).toBe(await status('QVIL', 'jewish_halakhic', 'il'));
    for (const market of ['us', 'il']) {
      const reasons = (await report('QVIL', market)).jewish_halakhic.reasons as Json[];
      expect(
        reasons.some((r) => /presum/i.test(r.message)),
        `${market}: the verdict says control is a presumption`,
      ).toBe(true);
    }
  });

  it('when a company produces contraceptives at 1%, then USCCB is non_compliant; a tobacco retailer at 8% is not', async () => {
    expect(await status('QVCT', 'catholic_usccb')).toBe('non_compliant');
    expect(await status('QVTB', 'catholic_usccb')).not.toBe('non_compliant');
  });

  it('when a poultry processor (SIC 2015) has no halal certification, then FTSE is questionable', async () => {
    expect(await status('QVPL', 'shariah_ftse')).toBe('questionable');
  });

  it('when cash is 40% of market cap and no interest-bearing securities are reported, then AAOIFI is questionable on a proxy, not non_compliant', async () => {
    await expectDoubt('QVCS', 'shariah_aaoifi', 'proxy');
  });

  it('when all five Shariah methodologies reject a bank, then the consensus is non_compliant', async () => {
    const frameworks = await report('QVBK');
    for (const id of SHARIAH_FRAMEWORK_IDS) expect(frameworks[id].status, id).toBe('non_compliant');
    expect(frameworks.service_consensus.status).toBe('non_compliant');
  });

  it('when LDS rejects a coffee roaster, then the consensus is the Shariah one, not pulled down, with LDS shown beside it', async () => {
    // The software company has the same figures and the same Shariah verdicts, and LDS accepts it.
    const roaster = await report('QVCR');
    const software = await report('QVSW');
    expect(roaster.lds_mormon.status).toBe('non_compliant');
    expect(software.lds_mormon.status).toBe('compliant');
    for (const id of SHARIAH_FRAMEWORK_IDS)
      expect([roaster[id].status, roaster[id].score], id).toEqual([software[id].status, software[id].score]);
    expect([roaster.service_consensus.status, roaster.service_consensus.score]).toEqual([
      software.service_consensus.status,
      software.service_consensus.score,
    ]);
    const consensus = (await lake.report('us', 'QVCR')).service_consensus;
    const weighted = (consensus.components as Json[]).filter((c) => c.weight > 0).map((c) => c.component);
    expect(
      weighted.every((c) => c === 'shariah_signal' || (SHARIAH_FRAMEWORK_IDS as readonly string[]).includes(c)),
      weighted.join(),
    ).toBe(true);
  });

  it('when a bank fails on its industry code alone, then each business failure states a value beyond its threshold', async () => {
    const frameworks = await report('QVBC');
    const failures = Object.values(frameworks).flatMap((f) =>
      (f as Json).reasons.filter((r: Json) => isBusiness(r) && r.result === 'fail'),
    );
    expect(failures.length).toBeGreaterThan(0);
    for (const r of failures) {
      // A reason without a comparison states no limit to contradict; one with a comparison must hold to its within_limit.
      if (r.operator === undefined || r.value === undefined || r.threshold === undefined) continue;
      const holds = { '<=': r.value <= r.threshold, '<': r.value < r.threshold, '>=': r.value >= r.threshold, '>': r.value > r.threshold }[
        r.operator as string
      ];
      expect(r.within_limit, JSON.stringify(r)).toBe(holds);
      expect(r.within_limit, r.code).toBe(false);
    }
  });
});
