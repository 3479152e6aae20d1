import {
  ISSUER_TYPE,
  PAYLOAD_VERSION,
  newCertId,
  publicCertificate,
  type AttestableVerdict,
  type Certificate,
} from '../../attest/certificate.ts';
import { pinSnapshot } from '../../attest/snapshot-pin.ts';
import { dayNumber, utcDay } from '../../engine/dates.ts';
import type { FrameworkId } from '../../engine/index.ts';
import type { Grant } from '../../common/grants.ts';
import type { AttestContext } from '../attest-context.ts';
import { conflict, notFound, unprocessable } from '../../common/app-error.ts';
import { loadResult } from './screen-ticker.ts';

/** A current screening older than this many whole days (by snapshot date, UTC) cannot be attested. */
export const MAX_SCREENING_AGE_DAYS = 30;

export interface MintRequest {
  market: string;
  ticker: string;
  standard: FrameworkId;
  grant: Grant | undefined;
}

/**
 * Mints a certificate for the ticker's current screening (its newest snapshot, any source).
 * Never screens: no screening → 404, older than 30 days → 409, `insufficient_data` → 422.
 * The certificate is signed and committed to service.db before this returns.
 */
export async function mintAttestation(attest: AttestContext, request: MintRequest): Promise<Certificate> {
  const { market, ticker, standard } = request;
  const { reads } = attest.screen;
  const current = reads.current(market, ticker);
  const listing = reads.listing(market, ticker);
  const screenFirst = `screen it first with GET /api/screen/${market}/${ticker}, then mint`;
  if (!current) {
    if (!listing)
      throw notFound(
        `ticker '${ticker}' is not listed in market '${market}'; look it up with GET /api/universe/search?q=${encodeURIComponent(ticker)}`,
        'ticker_not_found',
      );
    throw notFound(`${market}/${ticker} has no current screening to attest; minting never screens: ${screenFirst}`, 'no_current_screening');
  }
  const now = attest.now();
  const age = dayNumber(utcDay(now)) - dayNumber(current.snapshotDate);
  if (age > MAX_SCREENING_AGE_DAYS) {
    throw conflict(
      `the current screening of ${market}/${ticker} is dated ${current.snapshotDate}, ${age} days ago; certificates need one at most ` +
        `${MAX_SCREENING_AGE_DAYS} days old: re-screen with GET /api/screen/${market}/${ticker}?force_refresh=true, then mint`,
      'screening_too_old',
    );
  }
  const verdict = current.statuses[standard];
  if (verdict === 'insufficient_data') {
    throw unprocessable(
      `the current ${standard} verdict of ${market}/${ticker} (screened ${current.snapshotDate}) is insufficient_data, which cannot ` +
        `be attested; only compliant, questionable and non_compliant verdicts can`,
      'verdict_not_attestable',
    );
  }
  const result = await loadResult(attest.screen, current);
  const framework = result.frameworks[standard];
  // The index and result_json come from the same snapshot row; a disagreement is a fault, never a certificate.
  if (!framework || framework.status !== verdict)
    throw new Error(
      `snapshot ${market}/${ticker} ${current.snapshotDate} ${current.screenedAt}: ${standard} status differs between index and result_json`,
    );
  const stored = await attest.certificates.issue(
    {
      cert_id: newCertId(),
      payload_version: PAYLOAD_VERSION,
      ticker,
      market,
      standard,
      verdict: verdict as AttestableVerdict,
      score: framework.score,
      // Standards without a purification rule ask for none: 0. Null only when the rule lacked an input.
      purification_per_share: framework.purification === null ? 0 : framework.purification.per_share,
      as_of: `${current.screenedAt}Z`,
      minted_at: now.toISOString(),
      snapshot_ref: { source: current.source, day: current.snapshotDate },
      company_name: listing?.name || result.company_name,
      issuer_type: ISSUER_TYPE,
    },
    pinSnapshot(current),
    { keyId: request.grant?.keyId ?? null, account: request.grant?.account ?? null },
    attest.keys,
  );
  attest.logger?.info({ cert_id: stored.fields.cert_id, market, ticker, standard, key_id: stored.fields.key_id }, 'certificate minted');
  return publicCertificate(stored.fields, stored.sig, attest.baseUrl);
}
