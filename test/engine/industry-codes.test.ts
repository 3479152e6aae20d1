/**
 * The reviewed industry-code table, row by row: a code proves the primary business it names,
 * never the absence of a side business; an activity the class may carry is in doubt
 * (`questionable`, `ambiguous_evidence`) under every framework that screens it until a dated
 * figure settles it; a code is clean only for what its row leaves out; a code outside the table
 * is no evidence at all.
 */
import { describe, expect, it } from 'vitest';
import { screenCompany, type ActivityCode, type ScreeningInput } from '../../engine/index.ts';
import { industryDoubt, activityOfSic, involvementOfClass } from '../../engine/industry-codes.ts';
import type { ExclusionVersion } from '../../engine/faith/exclusion-types.ts';
import { PRIMARY_CLASSES, REVIEWED_CLASSES, type IndustryClass } from '../../engine/industry-code-table.ts';
import { versionInForce } from '../../engine/methodology-versions.ts';
import { SHARIAH_VERSIONS } from '../../engine/shariah/index-of-versions.ts';
import { BRI_VERSIONS } from '../../engine/faith/christian-bri.ts';
import { USCCB_VERSIONS } from '../../engine/faith/catholic-usccb.ts';
import { LDS_VERSIONS } from '../../engine/faith/lds-mormon.ts';
import { inputWith } from './fixtures.ts';

const DATE = '2025-06-30';

/** What each table-driven framework screens on the base date, for a company of the class `sic`. */
function screenedBy(sic: string): Record<string, readonly ActivityCode[]> {
  const involvement = involvementOfClass(sic);
  // A rule that names only some involvements (USCCB's tobacco production) screens a class that takes part otherwise not at all.
  const rulesOf = (v: ExclusionVersion) =>
    v.rules
      .filter((r) => !(r.threshold >= 0.5 && r.direct === undefined))
      .filter((r) => !r.onlyDirect || involvement === null || (r.direct ?? []).includes(involvement))
      .map((r) => r.activity);
  return {
    ...Object.fromEntries(
      Object.entries(SHARIAH_VERSIONS).map(([id, versions]) => [id, versionInForce(versions, DATE)!.prohibited as readonly ActivityCode[]]),
    ),
    christian_bri: rulesOf(versionInForce(BRI_VERSIONS, DATE)!),
    catholic_usccb: rulesOf(versionInForce(USCCB_VERSIONS, DATE)!),
    lds_mormon: rulesOf(versionInForce(LDS_VERSIONS, DATE)!),
  };
}

/** A code whose narrowest row is `row` (the first code of the row no narrower row claims). */
function codeOf(row: IndustryClass): string {
  for (let code = row.from; code <= row.to; code++) {
    const sic = String(code).padStart(4, '0');
    const doubt = industryDoubt(sic);
    if (doubt?.title === row.title) return sic;
  }
  throw new Error(`no code reaches the row ${row.title}`);
}

function screenSic(sic: string | null, patch: Partial<ScreeningInput> = {}) {
  return screenCompany({ ...inputWith({ listing: { sic } }), ...patch });
}

/**
 * A primary business settles nothing else (no framework passes on the code alone; a Shariah
 * methodology that prohibits it excludes the company); a class is questionable under a framework
 * that screens an activity it may carry, and clean for the rest.
 */
function expectedStatus(row: IndustryClass, screened: readonly ActivityCode[], id: string): unknown {
  if (row.primary !== undefined)
    return id.startsWith('shariah_') && screened.includes(row.primary) ? 'non_compliant' : expect.not.stringMatching(/^compliant$/);
  return row.mayCarry.some((a) => screened.includes(a)) ? 'questionable' : 'compliant';
}

describe('the reviewed industry-code table', () => {
  for (const row of REVIEWED_CLASSES) {
    const sic = codeOf(row);
    it(`SIC ${sic} (${row.title}): ${row.primary ?? 'no primary activity'}; may carry [${row.mayCarry.join(', ')}]`, () => {
      const result = screenSic(sic);
      const expected: Record<string, unknown> = {};
      const actual: Record<string, string> = {};
      const doubtMessages: string[] = [];
      for (const [id, screened] of Object.entries(screenedBy(sic))) {
        const f = result.frameworks[id as keyof typeof result.frameworks]!;
        actual[id] = f.status;
        expected[id] = expectedStatus(row, screened, id);
        if (f.status === 'questionable') {
          const doubt = f.reasons.find((r) => r.doubt === 'ambiguous_evidence' && r.evidence_level === 'industry_code');
          doubtMessages.push(doubt?.message ?? `${id}: no doubt reason`);
        }
      }
      expect(actual).toEqual(expected);
      for (const message of doubtMessages) expect(message).toContain(`SIC ${sic}`);
    });
  }

  it('when a primary code is looked up, then it names its activity and title', () => {
    for (const row of PRIMARY_CLASSES) expect(activityOfSic(String(row.from))?.activity, row.title).toBe(row.primary);
    expect(activityOfSic('2086')).toBeNull();
  });

  it.each([
    ['6770', 'blank checks'],
    ['6719', 'holding offices'],
    ['8880', 'American depositary receipts'],
    ['9995', 'non-operating establishments'],
  ])('when the code is %s (%s), which says nothing of a business, then business screens are insufficient_data naming the code', (sic) => {
    const result = screenSic(sic);
    for (const id of ['shariah_aaoifi', 'christian_bri', 'lds_mormon'] as const) {
      expect(result.frameworks[id]!.status, id).toBe('insufficient_data');
      const none = result.frameworks[id]!.reasons.find((r) => r.code.endsWith('none_reported'))!;
      expect(none.message).toContain(`SIC ${sic}, a code the reviewed industry table does not cover`);
    }
  });
});

describe('evidence beside an industry code', () => {
  const restaurant = (patch: Partial<ScreeningInput>) => ({ ...inputWith({ listing: { sic: '5812' } }), ...patch });

  it('when a restaurant reports only a 2% admissions figure from its filings, then the doubt on pork and alcohol stays beside the row', () => {
    const input = restaurant({
      exposures: [
        {
          activity: 'media_entertainment',
          revenueShare: 0.02,
          asOf: '2025-02-01',
          sourceRef: 'edgar:acc-1 AdmissionsRevenue',
          evidence: 'filing_concept',
        },
      ],
    });
    const result = screenCompany(input);
    for (const id of ['shariah_djim', 'shariah_ftse', 'shariah_aaoifi', 'lds_mormon'] as const) {
      expect(result.frameworks[id]!.status, id).toBe('questionable');
    }
    const djim = result.frameworks.shariah_djim!.reasons;
    expect(djim.find((r) => r.code === 'shariah_djim.business.none_reported')).toMatchObject({
      result: 'questionable',
      doubt: 'ambiguous_evidence',
    });
    expect(djim.find((r) => r.code === 'shariah_djim.non_permissible_income')).toMatchObject({
      result: 'questionable',
      doubt: 'ambiguous_evidence',
    });
  });

  it('when a fresh vendor row covers the restaurant, then the vendor settles the doubt', () => {
    const input = restaurant({ exposures: [{ activity: 'alcohol', revenueShare: 0.01, asOf: '2025-03-31', sourceRef: 'vendor:1' }] });
    expect(screenCompany(input).frameworks.shariah_djim!.status).toBe('compliant');
  });

  it('when the only vendor row is from 2014 and there is no SIC code, then it expires and the reason says how old it was', () => {
    const input = {
      ...inputWith({ listing: { sic: null } }),
      exposures: [{ activity: 'alcohol' as const, revenueShare: 0.01, asOf: '2014-03-31', sourceRef: 'vendor:old' }],
    };
    const result = screenCompany(input);
    for (const id of ['shariah_aaoifi', 'shariah_sp', 'christian_bri', 'catholic_usccb', 'jewish_halakhic', 'lds_mormon'] as const) {
      expect(result.frameworks[id]!.status, id).toBe('insufficient_data');
    }
    const alcohol = result.frameworks.shariah_aaoifi!.reasons.find((r) => r.code === 'shariah_aaoifi.business.alcohol')!;
    expect(alcohol.message).toContain('dated 2014-03-31, 11 years old');
    const usccb = result.frameworks.catholic_usccb!.reasons.find((r) => r.code.endsWith('none_reported'))!;
    expect(usccb.message).toContain('vendor exposure rows, the latest dated 2014-03-31, 11 years old');
  });

  it('when the filing accounts for 97% of revenue, the doubt stays; at 100% it is settled; an accounting 30 months old settles nothing', () => {
    const accounted = (share: number, asOf: string) =>
      restaurant({ revenueAccounted: { share, asOf, sourceRef: 'edgar:acc-2 srt:ProductOrServiceAxis' } });
    expect(screenCompany(accounted(0.97, '2025-01-31')).frameworks.shariah_ftse!.status).toBe('questionable');
    expect(screenCompany(accounted(0.99, '2025-01-31')).frameworks.shariah_ftse!.status).toBe('compliant');
    const settled = screenCompany(accounted(1, '2025-01-31')).frameworks.lds_mormon!;
    expect(settled.status).toBe('compliant');
    expect(settled.reasons.find((r) => r.code.endsWith('none_reported'))).toMatchObject({ evidence_level: 'filing' });
    expect(screenCompany(accounted(1, '2022-12-31')).frameworks.shariah_ftse!.status).toBe('questionable');
  });
});

describe('a retired revenue concept', () => {
  const casino = (asOf: string, sic: string | null) => ({
    ...inputWith({ listing: { sic } }),
    exposures: [
      {
        activity: 'gambling' as const,
        revenueShare: 0.78,
        asOf,
        sourceRef: 'edgar:0001590895-18-000004 us-gaap:CasinoRevenue / us-gaap:Revenues FY2017',
        evidence: 'retired_concept' as const,
        involvement: 'producer' as const,
      },
    ],
  });
  const SHARIAH = ['shariah_aaoifi', 'shariah_djim', 'shariah_sp', 'shariah_ftse', 'shariah_msci'] as const;

  it('when its last figure is fresh, then it decides as any filing figure does', () => {
    expect(screenCompany({ ...casino('2018-02-28', '7011'), screeningDate: '2018-06-29' }).frameworks.shariah_aaoifi!.status).toBe(
      'non_compliant',
    );
  });

  it('when its last figure is years old and the company still files under a class that carries the activity (hotels), then it still decides and says so', () => {
    const result = screenCompany(casino('2018-02-28', '7011'));
    const statuses = Object.fromEntries(SHARIAH.map((id) => [id, result.frameworks[id]!.status]));
    expect(statuses).toEqual(Object.fromEntries(SHARIAH.map((id) => [id, 'non_compliant'])));
    expect(result.frameworks.christian_bri!.status).toBe('non_compliant');
    const gambling = result.frameworks.shariah_aaoifi!.reasons.find((r) => r.code === 'shariah_aaoifi.business.gambling')!;
    expect(gambling).toMatchObject({ result: 'fail', value: 0.78 });
    expect(gambling.message).toContain('dated 2018-02-28, 7 years old');
    expect(gambling.message).toContain('still carries it');
  });

  it('when its last figure is years old and no industry class carries the activity, then the verdict is in doubt, shows the share with its year, and never claims no concept names it', () => {
    const result = screenCompany(casino('2018-02-28', null));
    for (const id of SHARIAH) {
      const f = result.frameworks[id]!;
      const gambling = f.reasons.find((r) => r.code === `${id}.business.gambling`)!;
      expect(gambling, id).toMatchObject({ result: 'questionable', doubt: 'ambiguous_evidence', value: 0.78 });
      expect(gambling.message).toContain('78.00% of revenue');
      expect(gambling.message).toContain('FY2017');
      expect(gambling.message).toContain('retired');
      expect(f.reasons.map((r) => r.message).join(' ')).not.toMatch(/no revenue concept naming an activity/);
    }
  });
});

describe('reasons of a primary business decided by its code', () => {
  it('when a bank is excluded by its SIC code, then the reason states a classification and no contradictory comparison', () => {
    const r = screenSic('6022').frameworks.shariah_aaoifi!.reasons.find((x) => x.code === 'shariah_aaoifi.business.conventional_finance')!;
    expect(r).toMatchObject({ result: 'fail', within_limit: false, evidence_level: 'industry_code', filing_ref: 'sic:6022' });
    expect(r.value).toBeUndefined();
    expect(r.threshold).toBeUndefined();
  });
});
