/** A same-industry candidate for the peer table (total assets in the listing currency). */
export interface PeerCandidateInput {
  ticker: string;
  sic: string;
  totalAssets: number;
}

export type PeerMatch = 'sic4' | 'sic2';

export interface RankedPeer<P extends PeerCandidateInput> {
  rank: number;
  candidate: P;
  match: PeerMatch;
  /** |ln(peer assets / company assets)|: 0 is the same size, ln 2 ≈ 0.69 is twice or half; null when a size is unknown. */
  size_distance: number | null;
}

export interface PeerSelection<P extends PeerCandidateInput> {
  peers: RankedPeer<P>[];
  /** True when 4-digit SIC peers were fewer than `n` and the 2-digit major group filled the rest. */
  widened: boolean;
  /** True when even the major group had fewer than `n`. */
  short: boolean;
}

function distance(a: number, b: number | null): number | null {
  return b === null || a <= 0 || b <= 0 ? null : Math.abs(Math.log(a / b));
}

/**
 * The `n` peers of a company: listings with the same 4-digit SIC first, then (only when they
 * are fewer than `n`) the same 2-digit major group; within each, closest in total assets
 * (log ratio) first, ties by ticker. Pure: the candidates come from the warehouse.
 */
export function rankPeers<P extends PeerCandidateInput>(
  companySic: string,
  companyAssets: number | null,
  candidates: readonly P[],
  n: number,
): PeerSelection<P> {
  const byCloseness = (match: PeerMatch) =>
    candidates
      .filter((c) => (match === 'sic4' ? c.sic === companySic : c.sic !== companySic && c.sic.slice(0, 2) === companySic.slice(0, 2)))
      .map((candidate) => ({ candidate, match, size_distance: distance(candidate.totalAssets, companyAssets) }))
      .sort(
        (a, b) => (a.size_distance ?? Infinity) - (b.size_distance ?? Infinity) || a.candidate.ticker.localeCompare(b.candidate.ticker),
      );
  const same = byCloseness('sic4');
  const widened = same.length < n;
  const chosen = widened ? [...same, ...byCloseness('sic2')].slice(0, n) : same.slice(0, n);
  return { peers: chosen.map((p, i) => ({ rank: i + 1, ...p })), widened, short: chosen.length < n };
}
