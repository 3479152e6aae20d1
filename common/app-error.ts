/** The structured `detail` some 403/429 responses carry (limits and where to upgrade). */
export interface StructuredDetail {
  message: string;
  upgrade_url?: string;
  limits?: unknown;
  [key: string]: unknown;
}

export type ErrorDetail = string | StructuredDetail;

/** An expected failure with the status and `detail` a client should see (and, for 503s, when to retry). */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: ErrorDetail,
    /** Sent as `Retry-After` (seconds). */
    readonly retryAfterSeconds?: number,
  ) {
    super(typeof detail === 'string' ? detail : detail.message);
    this.name = 'AppError';
  }
}

export const badRequest = (detail: ErrorDetail, code = 'bad_request') => new AppError(400, code, detail);
export const unauthorized = (detail: ErrorDetail, code = 'unauthorized') => new AppError(401, code, detail);
export const forbidden = (detail: ErrorDetail, code = 'forbidden') => new AppError(403, code, detail);
export const notFound = (detail: ErrorDetail, code = 'not_found') => new AppError(404, code, detail);
export const conflict = (detail: ErrorDetail, code = 'conflict') => new AppError(409, code, detail);
export const unprocessable = (detail: ErrorDetail, code = 'unprocessable') => new AppError(422, code, detail);
export const tooManyRequests = (detail: ErrorDetail, code = 'quota_exhausted') => new AppError(429, code, detail);
export const serviceUnavailable = (detail: ErrorDetail, code = 'unavailable', retryAfterSeconds?: number) =>
  new AppError(503, code, detail, retryAfterSeconds);

/**
 * 400 for a fund's ticker where a company is expected (docs/api.md, "Funds"): what the endpoint
 * needs that a fund lacks (`why`), and the fund endpoint with the body to send.
 */
export const tickerIsAFund = (market: string, ticker: string, why: string) =>
  badRequest(
    `'${ticker}' in market '${market}' is a fund: ${why}; a fund is screened through its holdings with POST /api/screen/etf ` +
      `{"etf_ticker": "${ticker}", "market": "${market}"}`,
    'ticker_is_a_fund',
  );

/** The reads are saturated: 503 with `Retry-After`, the client should come back shortly. */
export const readsSaturated = (reason: string, retryAfterSeconds: number) =>
  serviceUnavailable(
    {
      message: `the service is reading at capacity (${reason}); retry after ${retryAfterSeconds} s`,
      retry_after_seconds: retryAfterSeconds,
    },
    'reads_saturated',
    retryAfterSeconds,
  );
