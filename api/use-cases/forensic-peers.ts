import { rankPeers } from '../../forensic/index.ts';
import type { Listing } from '../../reads/api-reads-types.ts';
import type { ListingProfile, PeerCandidate } from '../../warehouse/forensic-reads.ts';
import type { ForensicContext } from '../forensic-context.ts';
import { SYNTHETIC_NOTICE } from '../../serving/screen-report.ts';
import { analyseCompanies, analyseCompany, forensicProvenance, scoreSummaries, type CompanyAnalysis } from './forensic-report.ts';

export const PEER_RANKING_RULE =
  'same 4-digit SIC in the same market first, then (only when they are fewer than n) the same 2-digit SIC major group; within each, ' +
  'closest in total assets of the latest filing by as_of (|ln(peer / company)|), ties by ticker';

/** Quota units of a peer table: 1, plus 1 for every 5 peers asked (the work grows with n). */
export function peersCost(n: number): number {
  return 1 + Math.ceil(n / 5);
}

function profileOf(candidate: PeerCandidate, listing: Listing): ListingProfile {
  return {
    market: listing.market,
    ticker: candidate.ticker,
    name: candidate.name,
    kind: 'stock',
    currency: listing.currency,
    sic: candidate.sic,
    sicDescription: candidate.sicDescription,
    synthetic: false,
    dataSource: 'unknown',
  };
}

function entry(a: CompanyAnalysis, extra: { rank?: number; match: 'company' | 'sic4' | 'sic2'; sizeDistance: number | null }) {
  const current = a.report.periods.current;
  return {
    ...(extra.rank !== undefined ? { rank: extra.rank } : {}),
    ticker: a.listing.ticker,
    company_name: a.profile?.name ?? a.listing.name,
    sic: a.profile?.sic ?? null,
    sic_description: a.profile?.sicDescription ?? null,
    match: extra.match,
    total_assets: current?.figures.total_assets ?? null,
    total_assets_period_end: current?.periodEnd ?? null,
    size_distance: extra.sizeDistance === null ? null : Math.round(extra.sizeDistance * 1e4) / 1e4,
    scores: scoreSummaries(a),
  };
}

/** The company's place by health score among itself and its peers (1 = healthiest), null when it has none. */
function positionOf(company: CompanyAnalysis, peers: readonly CompanyAnalysis[]) {
  if (company.report.health.value === null) return null;
  const scored = [company, ...peers].filter((a) => a.report.health.value !== null);
  const better = scored.filter((a) => a.report.health.value! > company.report.health.value!).length;
  return { by: 'health_score' as const, rank: better + 1, of: scored.length };
}

/** `GET /api/forensic/{ticker}/peers`: the company's `n` closest same-industry peers, ranked, each with its scores. */
export async function forensicPeers(forensic: ForensicContext, listing: Listing, asOf: string, n: number) {
  const company = await analyseCompany(forensic, listing, asOf);
  const sic = company.profile?.sic ?? null;
  const candidates = sic === null ? [] : await forensic.lake.peerCandidates({ market: listing.market, ticker: listing.ticker, sic, asOf });
  const selection =
    sic === null
      ? { peers: [], widened: false, short: true }
      : rankPeers(sic, company.report.periods.current?.figures.total_assets ?? null, candidates, n);
  const listings = selection.peers.map(
    (p) =>
      forensic.universe.listing(listing.market, p.candidate.ticker) ?? { ...listing, ticker: p.candidate.ticker, name: p.candidate.name },
  );
  const profiles = new Map(selection.peers.map((p, i) => [p.candidate.ticker, profileOf(p.candidate, listings[i]!)]));
  const analyses = await analyseCompanies(forensic, listings, profiles, asOf);
  const notes: string[] = [];
  if (sic === null) notes.push("the company's SIC code is unknown, so no same-industry peers can be chosen");
  else if (selection.widened)
    notes.push(`fewer than ${n} listings share SIC ${sic}; the 2-digit major group ${sic.slice(0, 2)} filled the rest`);
  if (sic !== null && selection.short)
    notes.push(`only ${selection.peers.length} stock(s) with filings by ${asOf} are in major group ${sic.slice(0, 2)} of this market`);
  const provenance = forensicProvenance(company);
  // A peer table mixing real and generated filings must still say it holds generated ones.
  const peerSynthetic = !provenance.synthetic && analyses.some((a) => a.filings?.synthetic);
  return {
    ticker: listing.ticker,
    market: listing.market,
    as_of: asOf,
    n,
    returned: analyses.length,
    ranking: {
      rule: PEER_RANKING_RULE,
      scope: `stocks of market '${listing.market}' (amounts share one currency)`,
      sic,
      major_group: sic === null ? null : sic.slice(0, 2),
      widened_to_major_group: selection.widened && sic !== null,
      ...(notes.length ? { note: notes.join('; ') } : {}),
    },
    company: entry(company, { match: 'company', sizeDistance: 0 }),
    peers: analyses.map((a, i) =>
      entry(a, { rank: selection.peers[i]!.rank, match: selection.peers[i]!.match, sizeDistance: selection.peers[i]!.size_distance }),
    ),
    company_position: positionOf(company, analyses),
    provenance: peerSynthetic ? { ...provenance, synthetic: true, notice: SYNTHETIC_NOTICE } : provenance,
  };
}
