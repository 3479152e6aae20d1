/**
 * Backfill snapshots keep a compact result: the reasons that decided each verdict, with their
 * provenance down to each figure (docs/api.md, "as_of"; docs/pipelines.md).
 */
import { describe, expect, it } from 'vitest';
import { compactResult, compactResultJson } from '../../activities/snapshot-rows.ts';
import { screenCompany, type ScreeningInput, type ScreeningResult } from '../../engine/index.ts';
import { packResult, TextBook } from '../../warehouse/methodology-texts.ts';
import { baseInput } from '../engine/fixtures.ts';

const DEBT_SOURCE = 'us-gaap:LongTermDebtNoncurrent @ 0009999901-25-000011';
const INTEREST_SOURCE = 'not reported: only interest net of interest expense is reported';

/** A real-filing-like input: figure sources recorded, interest income unknown, no SIC code. */
function realLikeInput(): ScreeningInput {
  const input = baseInput();
  input.listing = { ...input.listing, sic: null };
  input.fundamentals = {
    ...input.fundamentals!,
    sourceRef: 'edgar:0009999901-25-000011',
    interestIncome: null,
    figureSources: { total_debt: DEBT_SOURCE, interest_income: INTEREST_SOURCE },
  };
  return input;
}

describe('compact results of backfill snapshots', () => {
  const full = screenCompany(realLikeInput());
  const compact = compactResult(full);
  const reasons = compact.frameworks.shariah_aaoifi!.reasons;

  it('when a check passed, then it is dropped, and every status is kept', () => {
    expect(reasons.some((r) => r.result === 'pass' || r.result === 'info')).toBe(false);
    for (const id of full.frameworks_returned) expect(compact.frameworks[id]!.status, id).toBe(full.frameworks[id]!.status);
  });

  it('when a deciding check rests on filing figures, then it keeps its filing_ref and each input with its concept and accession', () => {
    const income = reasons.find((r) => r.code === 'shariah_aaoifi.non_permissible_income')!;
    expect(income).toMatchObject({ result: 'insufficient_data', filing_ref: 'edgar:0009999901-25-000011' });
    expect(income.inputs).toContainEqual({ name: 'interest_income', value: null, source: INTEREST_SOURCE });
    expect(income.inputs).toContainEqual(expect.objectContaining({ name: 'total_revenue', value: 5000 }));
  });

  it('when the business screen lacks evidence, then the compact reason keeps its evidence level', () => {
    const business = reasons.find((r) => r.code === 'shariah_aaoifi.business.none_reported')!;
    expect(business).toMatchObject({ result: 'insufficient_data', evidence_level: 'none' });
  });

  it('when stored as JSON, then a field the reason did not have is not written', () => {
    const stored = JSON.parse(JSON.stringify(compact)) as typeof compact;
    const business = stored.frameworks.shariah_aaoifi!.reasons.find((r) => r.code === 'shariah_aaoifi.business.none_reported')!;
    expect(Object.keys(business)).not.toContain('inputs');
    expect(Object.keys(business)).not.toContain('source');
  });
});

describe('the stored JSON of a backfill result, written member by member', () => {
  /** What a backfill row stored before it was written member by member: the reference bytes. */
  const reference = (result: ScreeningResult): string => JSON.stringify(packResult(compactResult(result), new TextBook()));

  it('when a result has figure sources, data-quality notes and madhhab views, then its JSON equals the packed compact result byte for byte', () => {
    const input = realLikeInput();
    input.marketCap = { ...input.marketCap, spot: null, spotPriceDate: null };
    const result = screenCompany(input);
    expect(result.data_quality.length).toBeGreaterThan(0);
    expect(result.madhhab_views).toBeDefined();
    expect(compactResultJson(result, new TextBook())).toBe(reference(result));
  });

  it('when members are missing or null (no madhhab views, no purification), then they are written or left out as JSON.stringify does', () => {
    const result: ScreeningResult = { ...screenCompany(baseInput()), purification: null, purification_per_share: null };
    delete result.madhhab_views;
    const json = compactResultJson(result, new TextBook());
    expect(json).toBe(reference(result));
    expect(JSON.parse(json)).not.toHaveProperty('madhhab_views');
    expect(JSON.parse(json)).toMatchObject({ purification: null, data_quality: [] });
  });

  it('when a framework result is stored again in the same book, then its cached part gives the same bytes', () => {
    const result = screenCompany(baseInput());
    const book = new TextBook();
    const first = compactResultJson(result, book);
    expect(compactResultJson({ ...result, screening_date: '2025-07-31' }, book)).toBe(first.replace('"2025-06-30"', '"2025-07-31"'));
  });
});
