import { buildForensicReport, type ForensicReport, type Period, type ScoreResult } from '../../forensic/index.ts';
import type { Listing } from '../../reads/api-reads-types.ts';
import type { CompanyFilings, ListingProfile } from '../../warehouse/forensic-reads.ts';
import type { ForensicContext } from '../forensic-context.ts';
import { SYNTHETIC_NOTICE } from '../../serving/screen-report.ts';

/** One company's filings, profile and computed scores on `asOf`. */
export interface CompanyAnalysis {
  listing: Listing;
  profile: ListingProfile | undefined;
  filings: CompanyFilings | undefined;
  report: ForensicReport;
  asOf: string;
}

/** Scores a company from what the lake says was filed by `asOf` (`YYYY-MM-DD`). */
export async function analyseCompany(forensic: ForensicContext, listing: Listing, asOf: string): Promise<CompanyAnalysis> {
  const [profile, filings] = await Promise.all([
    forensic.lake.profile(listing.market, listing.ticker),
    forensic.lake.filings(listing.market, [listing.ticker], asOf),
  ]);
  const own = filings.get(listing.ticker);
  return { listing, profile, filings: own, report: buildForensicReport({ sic: profile?.sic ?? null }, own?.periods ?? []), asOf };
}

/** Scores several companies of one market with one read of their filings (peer tables). */
export async function analyseCompanies(
  forensic: ForensicContext,
  listings: readonly Listing[],
  profiles: ReadonlyMap<string, ListingProfile | undefined>,
  asOf: string,
): Promise<CompanyAnalysis[]> {
  if (listings.length === 0) return [];
  const filings = await forensic.lake.filings(
    listings[0]!.market,
    listings.map((l) => l.ticker),
    asOf,
  );
  return listings.map((listing) => {
    const profile = profiles.get(listing.ticker);
    const own = filings.get(listing.ticker);
    return { listing, profile, filings: own, report: buildForensicReport({ sic: profile?.sic ?? null }, own?.periods ?? []), asOf };
  });
}

const periodRef = (p: Period | null) =>
  p === null ? null : { period_end: p.periodEnd, filed_on: p.filedOn, source_ref: p.sourceRef, currency: p.currency };

function provenance(a: CompanyAnalysis) {
  const synthetic = (a.filings?.synthetic ?? false) || (a.profile?.synthetic ?? false);
  const sources = a.filings?.dataSources.length ? a.filings.dataSources : [a.profile?.dataSource ?? 'unknown'];
  return {
    data_source: synthetic ? `${sources.join(', ')} (synthetic sample universe)` : sources.join(', '),
    synthetic,
    ...(synthetic ? { notice: SYNTHETIC_NOTICE } : {}),
    as_of: a.asOf,
    filings_considered: a.filings?.periods.length ?? 0,
  };
}

/** Identity, periods and provenance every forensic response starts with. */
function companyFields(a: CompanyAnalysis) {
  const { periods } = a.report;
  return {
    ticker: a.listing.ticker,
    market: a.listing.market,
    company_name: a.profile?.name ?? a.listing.name,
    sic: a.profile?.sic ?? null,
    sic_description: a.profile?.sicDescription ?? null,
    currency: periods.current?.currency || a.listing.currency,
    as_of: a.asOf,
    periods: { current: periodRef(periods.current), prior: periodRef(periods.prior), prior2: periodRef(periods.prior2) },
  };
}

/** `GET /api/forensic/{ticker}`: every score with its inputs, the health score, and the year-by-year trend. */
export function forensicReportResponse(a: CompanyAnalysis) {
  const { scores, health } = a.report;
  return {
    ...companyFields(a),
    scores: {
      beneish_m_score: scores.beneish,
      altman_z_score: scores.altman,
      piotroski_f_score: scores.piotroski,
      sloan_accrual_ratio: scores.sloan,
      benford_first_digit: scores.benford,
    },
    health_score: health,
    history: a.report.history,
    provenance: provenance(a),
  };
}

/** `GET /api/forensic/{ticker}/health-score`: the composite and its components only. */
export function healthScoreResponse(a: CompanyAnalysis) {
  return { ...companyFields(a), health_score: a.report.health, provenance: provenance(a) };
}

const summary = (s: Pick<ScoreResult<unknown>, 'status' | 'value' | 'reading'>) => ({
  status: s.status,
  value: s.value,
  reading: s.reading,
});

/** The scores of a company in one line of a peer table. */
export function scoreSummaries(a: CompanyAnalysis) {
  const { scores, health } = a.report;
  const altman = scores.altman;
  return {
    beneish_m_score: summary(scores.beneish),
    altman_z_score: { ...summary(altman), variant: altman.status === 'not_applicable' ? null : (altman.components.variant ?? null) },
    piotroski_f_score: summary(scores.piotroski),
    sloan_accrual_ratio: summary(scores.sloan),
    benford_first_digit: summary(scores.benford),
    health_score: { status: health.status, value: health.value, reading: health.reading },
  };
}

export { provenance as forensicProvenance };
