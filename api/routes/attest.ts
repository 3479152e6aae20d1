import Router from '@koa/router';
import type { Middleware } from 'koa';
import { FRAMEWORK_IDS, isFrameworkId, type FrameworkId } from '../../engine/index.ts';
import { assertMarketGranted, declareEndpoint, grantOf, scopeFrameworks } from '../access-scope.ts';
import type { AttestContext } from '../attest-context.ts';
import { AppError, badRequest } from '../../common/app-error.ts';
import { CERTIFICATE_PAGE_CSP, renderCertificatePage, renderUnknownCertificatePage } from '../pages/certificate-page.ts';
import { attestQuerySchema } from '../schemas/attestations.ts';
import { mintAttestation } from '../use-cases/mint-attestation.ts';
import { checkCertificate, verifyAttestation } from '../use-cases/verify-attestation.ts';
import { checkMarket, normaliseTicker, parseRequest } from '../validation.ts';

/** The `standard` to attest: one of the 10 framework ids, or 400 listing them. */
function checkStandard(standard: string | undefined): FrameworkId {
  if (standard === undefined || standard.trim() === '') {
    throw badRequest(`query.standard: required; name the framework to attest, one of: ${FRAMEWORK_IDS.join(', ')}`, 'unknown_standard');
  }
  if (!isFrameworkId(standard))
    throw badRequest(`query.standard: unknown framework id '${standard}'; valid ids: ${FRAMEWORK_IDS.join(', ')}`, 'unknown_standard');
  return standard;
}

/**
 * Mint (`attest`, 5 units, behind access control), verify (public, no quota, never cached) and
 * the certificate's public page outside /api. Verification and the page share one per-IP limit:
 * the page runs the same verification.
 */
export function attestRoutes(service: AttestContext, access: Middleware[], verifyLimit: Middleware): Router {
  const router = new Router();

  router.post(
    '/api/attest/:market/:ticker',
    declareEndpoint(() => ({ tag: 'attest', cost: 5 })),
    ...access,
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const market = checkMarket(ctx.params.market!);
      const ticker = normaliseTicker(ctx.params.ticker!);
      const standard = checkStandard(parseRequest(attestQuerySchema, ctx.query, 'query').standard);
      const grant = grantOf(ctx);
      assertMarketGranted(market, grant);
      scopeFrameworks([standard], grant);
      ctx.body = await mintAttestation(service, { market, ticker, standard, grant });
    },
  );

  router.get(
    '/api/attest/verify/:cert_id',
    declareEndpoint(() => ({ tag: 'public', cost: 0 })),
    verifyLimit,
    ...access,
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await verifyAttestation(service, ctx.params.cert_id!);
    },
  );

  router.get(
    '/attest/:cert_id',
    declareEndpoint(() => ({ tag: 'public', cost: 0 })),
    verifyLimit,
    ...access,
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Robots-Tag', 'noindex, nofollow');
      ctx.set('Content-Security-Policy', CERTIFICATE_PAGE_CSP);
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = 'text/html; charset=utf-8';
      const certId = ctx.params.cert_id!;
      try {
        const { result, synthetic } = await checkCertificate(service, certId);
        ctx.body = renderCertificatePage(result, synthetic);
      } catch (error) {
        // A person opened this address: answer in HTML, not in the API's JSON error shape.
        if (!(error instanceof AppError) || error.status !== 404) throw error;
        ctx.status = 404;
        ctx.body = renderUnknownCertificatePage(certId);
      }
    },
  );

  return router;
}
