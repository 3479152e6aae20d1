import { z } from 'zod';
import * as attestations from '../schemas/attestations.ts';
import * as customScreens from '../schemas/custom-screens.ts';
import * as explain from '../schemas/explain.ts';
import * as forensic from '../schemas/forensic.ts';
import * as portfolio from '../schemas/portfolio.ts';
import * as purification from '../schemas/purification.ts';
import * as requests from '../schemas/requests.ts';
import * as responses from '../schemas/responses.ts';
import * as timeline from '../schemas/timeline.ts';
import * as webhooks from '../schemas/webhooks.ts';
import * as zakat from '../schemas/zakat.ts';
import { API_DESCRIPTION } from './description.ts';

type JsonObject = Record<string, unknown>;

/** A request schema as JSON Schema (what a client may send), without the `$schema` marker. */
function inputSchema(schema: z.ZodType): JsonObject {
  return withoutMarker(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject);
}

function withoutMarker(schema: JsonObject): JsonObject {
  const copy = { ...schema };
  delete copy.$schema;
  return copy;
}

const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${String(schema.meta()?.id)}` });

/** One OpenAPI parameter per property of a zod object schema. */
function parameters(schema: z.ZodObject, where: 'query' | 'path'): JsonObject[] {
  const json = inputSchema(schema) as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

const ERROR_TEXT: Record<number, string> = {
  401: 'missing or invalid API key (send it in `X-API-Key`)',
  429:
    'quota exhausted: `detail` is an object with `message`, `limits` (each window: limit, used, resets_at) and `upgrade_url`; no ' +
    "X-RateLimit headers are sent. Or, with force_refresh, too many of the key's re-screens are already waiting (`detail` a " +
    'string, code too_many_refreshes, free of charge)',
  400:
    'invalid value (market, ticker, framework id, as_of, limit, …; a fund where a company is expected: use POST /api/screen/etf); ' +
    '`detail` names the valid values',
  403: 'the key is not provisioned for this market, endpoint or framework (access control)',
  404: 'ticker, fund or history not found',
  406: 'the Accept header asks for a format this endpoint does not produce',
  409: 'the current screening is older than 30 days (attestation); re-screen with force_refresh=true, then mint',
  413: 'request body larger than 64 kB',
  422: 'malformed request: body not a JSON object, wrong types, repeated query parameters',
  503:
    'a re-screen was needed but the workflow service is unavailable, or the service is reading at capacity (Retry-After); retry ' +
    'shortly. A re-screen that started but outlived its wait answers 503 too, and is charged',
};

function errors(...statuses: number[]): JsonObject {
  return Object.fromEntries(
    statuses.map((s) => [
      String(s),
      {
        description: ERROR_TEXT[s],
        content: {
          'application/json': {
            schema: s === 429 ? { oneOf: [ref(responses.quotaExhaustedSchema), ref(responses.errorSchema)] } : ref(responses.errorSchema),
          },
        },
      },
    ]),
  );
}

function ok(description: string, schema: z.ZodType): JsonObject {
  return { '200': { description, content: { 'application/json': { schema: ref(schema) } } } };
}

function jsonBody(schema: z.ZodType): JsonObject {
  return { required: true, content: { 'application/json': { schema: inputSchema(schema) } } };
}

/**
 * One operation. Every tag but `public` needs an API key and is metered, so it carries the
 * security requirement and the access-control answers (401, 403, 429); public operations
 * never refuse because of a key.
 */
function op(summary: string, tag: string, cost: string, extra: JsonObject): JsonObject {
  const metered = tag !== 'public';
  const given = (extra.responses ?? {}) as JsonObject;
  const access = metered ? errors(401, 403, 429) : {};
  return {
    summary,
    tags: [tag],
    'x-endpoint-tag': tag,
    'x-unit-cost': cost,
    ...(metered ? { security: [{ apiKey: [] }] } : {}),
    ...extra,
    responses: { ...given, ...access },
  };
}

/** A JSON error answer with its own description. */
function errorAnswer(description: string, headers?: JsonObject): JsonObject {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema: ref(responses.errorSchema) } } };
}

/** Mint, verify and the certificate page (docs/attestations.md has the whole story). */
function attestationPaths(screenParams: JsonObject[]): JsonObject {
  const certId = parameters(attestations.certIdPathSchema, 'path');
  const noStore = {
    'Cache-Control': { description: 'always no-store: verification is never cached', schema: { type: 'string', const: 'no-store' } },
  };
  const rateLimited = errorAnswer(
    'more than 60 verifications a minute from this IP address (verify and the page share the budget); `Retry-After` says when to retry; no X-RateLimit headers',
    {
      'Retry-After': { description: 'seconds until the next request fits the window', schema: { type: 'integer' } },
    },
  );
  const unknown = errorAnswer('no certificate has this id; `detail` says what ids look like');
  return {
    '/api/attest/{market}/{ticker}': {
      post: op('Mint a signed attestation of the current verdict (never screens)', 'attest', '5', {
        description:
          `Signs the ticker's current screening (its newest snapshot) for one standard. Needs a paid-tier key (partner ` +
          `keys: the attest grant). No current screening: 404; older than 30 days by snapshot date: 409; insufficient_data: 422; ` +
          `unknown standard: 400 listing the 10 ids. The certificate is committed to the service database before the 200.`,
        parameters: [...screenParams, ...parameters(attestations.attestQuerySchema, 'query')],
        responses: {
          '200': {
            description: 'the certificate',
            headers: noStore,
            content: { 'application/json': { schema: ref(attestations.attestationSchema) } },
          },
          ...errors(400, 403, 404, 409, 422),
        },
      }),
    },
    '/api/attest/verify/{cert_id}': {
      get: op('Verify an attestation (public, no key, no quota, never cached)', 'public', '0', {
        description:
          'Recomputes the HMAC over the stored certificate with its signing key, reads revocation and key trust, and compares the ' +
          'pinned snapshot with the newest snapshot of its day. Status precedence when several apply: revoked > unknown_signing_key ' +
          '> invalid_signature > valid_snapshot_missing > valid_snapshot_diverged > valid. Rate limit: 60 requests a minute per IP.',
        parameters: certId,
        responses: {
          '200': {
            description: 'the verification result',
            headers: noStore,
            content: { 'application/json': { schema: ref(attestations.verificationResultSchema) } },
          },
          '404': unknown,
          '429': rateLimited,
        },
      }),
    },
    '/attest/{cert_id}': {
      get: op("The certificate's public page (print-friendly HTML, live status, never indexed)", 'public', '0', {
        description:
          'Unlisted: linked from nowhere; `X-Robots-Tag: noindex` and a robots meta tag; no external assets. Shares the verification rate limit.',
        parameters: certId,
        responses: {
          '200': {
            description: 'HTML page',
            headers: { 'X-Robots-Tag': { schema: { type: 'string', const: 'noindex, nofollow' } }, ...noStore },
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          '404': { description: 'HTML page: no certificate has this id', content: { 'text/html': { schema: { type: 'string' } } } },
          '429': rateLimited,
        },
      }),
    },
  };
}

/** The forensic accounting endpoints (docs/forensic.md has the formulas, thresholds and rules). */
function forensicPaths(): JsonObject {
  const path = parameters(forensic.forensicPathSchema, 'path');
  const query = parameters(forensic.forensicQuerySchema, 'query');
  const resolution =
    'The path has no market: the `market` query parameter picks one; otherwise the US listing when the ticker is listed there, else ' +
    'its only listing. A ticker listed in several markets, none of them the US: 400 naming the candidates as market:ticker. Unknown ' +
    'ticker: 404. A fund: 400 naming `POST /api/screen/etf`. Only filings filed on or before `as_of` (default today) count.';
  const answers = errors(400, 403, 404, 422);
  return {
    '/api/forensic/{ticker}': {
      get: op(
        'Forensic accounting report: Beneish M, Altman Z, Piotroski F, Sloan accruals, Benford digits and the health score',
        'forensic',
        '2',
        {
          description:
            `Every score shows its inputs, the period ends and filings they came from, its thresholds and its reading; ` +
            `a score whose inputs are missing is insufficient_data naming each missing figure and period. ${resolution}`,
          parameters: [...path, ...query],
          responses: { ...ok('the full report', forensic.forensicReportSchema), ...answers },
        },
      ),
    },
    '/api/forensic/{ticker}/health-score': {
      get: op('Composite 0–100 forensic health score with its components', 'forensic', '1', {
        description:
          `Weighted blend of the five scores mapped to 0–100 (Altman 0.30, Piotroski 0.30, Beneish 0.20, Sloan 0.10, ` +
          `Benford 0.10), renormalised over the available ones; insufficient_data below half the weight. ${resolution}`,
        parameters: [...path, ...query],
        responses: { ...ok('the health score', forensic.forensicHealthResponseSchema), ...answers },
      }),
    },
    '/api/forensic/{ticker}/peers': {
      get: op('Same-industry peers with their scores beside the company', 'forensic', '1 + ceil(n / 5) (n = 5 → 2, n = 50 → 11)', {
        description:
          `Stocks of the same market with the same 4-digit SIC, then the 2-digit major group when fewer than n (said in ` +
          `ranking.note), ranked by closeness in total assets. ${resolution}`,
        parameters: [...path, ...parameters(forensic.forensicPeersQuerySchema, 'query')],
        responses: { ...ok('the company, its ranked peers and their scores', forensic.forensicPeersResponseSchema), ...answers },
      }),
    },
  };
}

/** An account's custom screens (docs/custom-screens.md): a base framework plus the account's own layer, versioned. */
function customScreenPaths(): JsonObject {
  const slug = parameters(customScreens.customScreenSlugPathSchema, 'path');
  const unknown = errorAnswer("no custom screen of this slug in the key's account (another account's screen answers the same)");
  const badDefinition = errorAnswer(
    "bad value: unknown base or activity, a threshold on a metric the base does not check or looser than the base's own " +
      "(`detail` names the base's limit), a bad slug, ticker or effective date; `detail` names it and what is valid",
  );
  const screen = (description: string, status = '200') => ({
    [status]: { description, content: { 'application/json': { schema: ref(customScreens.customScreenSchema) } } },
  });
  return {
    '/api/screens': {
      post: op('Create a custom screen: a base framework plus extra exclusions and stricter limits (version 1)', 'screen', '1', {
        description:
          'Ask for it afterwards as `framework=custom:<slug>`. The layer only adds checks: extra excluded activities, ' +
          "excluded tickers, and limits stricter than the base's own; allowed tickers skip the layer's rules, never the base's. " +
          `At most ${customScreens.CUSTOM_SCREENS_PER_ACCOUNT} screens per account.`,
        requestBody: jsonBody(customScreens.createCustomScreenBodySchema),
        responses: {
          ...screen('the screen with its first version', '201'),
          '400': badDefinition,
          '409': errorAnswer(
            `the account already has a screen of this slug, or ${customScreens.CUSTOM_SCREENS_PER_ACCOUNT} screens; delete one first`,
          ),
          ...errors(413, 422),
        },
      }),
      get: op("List the account's custom screens (latest version of each)", 'screen', '0', {
        responses: ok('the screens, by slug', customScreens.customScreenListSchema),
      }),
    },
    '/api/screens/{slug}': {
      get: op('One custom screen with every version', 'screen', '0', {
        parameters: slug,
        responses: { ...screen('the screen, versions oldest first'), '400': errorAnswer('bad slug'), '404': unknown },
      }),
      put: op('Change a custom screen: the body is the whole next version, with its effective date', 'screen', '1', {
        parameters: slug,
        requestBody: jsonBody(customScreens.updateCustomScreenBodySchema),
        responses: {
          ...screen('the screen with its new version'),
          '400': badDefinition,
          '404': unknown,
          '409': errorAnswer(`the screen has ${customScreens.CUSTOM_SCREEN_VERSIONS_MAX} versions; create a new screen`),
          ...errors(413, 422),
        },
      }),
      delete: op('Delete a custom screen and its versions', 'screen', '0', {
        parameters: slug,
        responses: {
          '200': {
            description: 'deleted',
            content: {
              'application/json': { schema: { type: 'object', properties: { slug: { type: 'string' }, deleted: { const: true } } } },
            },
          },
          '400': errorAnswer('bad slug'),
          '404': unknown,
        },
      }),
    },
  };
}

/** Self-serve status-change webhooks (docs/webhooks.md has the event, the signature and verification code). */
function webhookPaths(): JsonObject {
  const id = parameters(webhooks.webhookIdPathSchema, 'path');
  const unknown = errorAnswer(
    "no live subscription with this id belongs to the key's account (another account's subscription answers the same)",
  );
  return {
    '/api/webhooks': {
      post: op('Subscribe a URL to status changes (the signing secret is returned once)', 'webhooks', '5', {
        description:
          `After every published screen, each change of a subscribed ticker's status in the ` +
          `subscription's frameworks is POSTed to the URL as one event per ticker, signed in the ` +
          `\`Faithscreen-Signature\` header (t=<unix>,v1=<hex HMAC-SHA-256 of "t.body">), retried with exponential ` +
          `backoff for up to a day. Give \`market\` or \`tickers\`. The URL must be https on a host whose every ` +
          `address is public (operators may allow http and private addresses for local use). At most ` +
          `${webhooks.WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT} live subscriptions per account.`,
        requestBody: jsonBody(webhooks.createWebhookBodySchema),
        responses: {
          '201': {
            description: 'the subscription with its signing secret (shown only here)',
            content: { 'application/json': { schema: ref(webhooks.createdWebhookSchema) } },
          },
          '400': errorAnswer(
            'bad value: unknown market or framework, bad ticker, unknown event type, market and tickers ' +
              'both or neither, a URL that is not https or not absolute, or a host that resolves to a non-public ' +
              'address; `detail` names it',
          ),
          '409': errorAnswer(`the account already has ${webhooks.WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT} live subscriptions; delete one first`),
          ...errors(413, 422),
        },
      }),
      get: op("List the account's subscriptions (never their secrets)", 'webhooks', '0', {
        responses: ok('the live subscriptions of the key’s account', webhooks.webhookListSchema),
      }),
    },
    '/api/webhooks/{id}': {
      delete: op('Delete a subscription: nothing more is delivered for it', 'webhooks', '0', {
        parameters: id,
        responses: {
          '200': {
            description: 'deleted',
            content: {
              'application/json': { schema: { type: 'object', properties: { id: { type: 'string' }, deleted: { const: true } } } },
            },
          },
          '404': unknown,
        },
      }),
    },
    '/api/webhooks/{id}/deliveries': {
      get: op('The newest events of a subscription with every delivery attempt', 'webhooks', '1', {
        parameters: [...id, ...parameters(webhooks.webhookDeliveriesQuerySchema, 'query')],
        responses: {
          ...ok('events, newest first, each with its attempts (status code, error, duration)', webhooks.webhookDeliveriesSchema),
          '400': errorAnswer(`limit outside 1 to ${webhooks.WEBHOOK_DELIVERIES_MAX}`),
          '404': unknown,
          ...errors(422),
        },
      }),
    },
  };
}

/** `POST /api/portfolio` (docs/api.md, "Portfolio"): JSON or a broker's CSV export. */
function portfolioPaths(): JsonObject {
  const { PORTFOLIO_HOLDINGS_MAX: max, WEIGHT_TOLERANCE: tolerance } = portfolio;
  return {
    '/api/portfolio': {
      post: op(
        'Screen a portfolio: per holding, per framework, funds looked through, purification for a period',
        'screen/batch',
        `${portfolio.PORTFOLIO_UNITS_PER_STOCK} per stock line, ${portfolio.PORTFOLIO_UNITS_PER_FUND} per fund line; with a period and ` +
          `shares, ${portfolio.PORTFOLIO_UNITS_PER_PURIFICATION} more per stock and Shariah framework; with zakat, ` +
          `${portfolio.PORTFOLIO_UNITS_PER_ZAKAT} more per stock`,
        {
          description:
            `1 to ${max} holdings, each sized by exactly one of shares, value or weight, the same one on every line (weights add ` +
            `up to 1 ± ${tolerance}). Verdicts are the current snapshots (never re-screened); a fund is looked through to its ` +
            `latest holdings report. Insufficient data, never screened, a verdict older than the stale window, or the part of ` +
            `a fund its report does not cover counts as unknown, never compliant. A period adds the purification owed ` +
            `(POST /api/purification per stock); zakat adds the zakat due today (GET /api/zakat per stock). Send text/csv (a ` +
            `broker export, with market, frameworks, from, to and zakat as query parameters) instead of JSON. Bad value, mixed units, weights that do ` +
            `not add up, a repeated ticker, too many holdings, a bad CSV: 400. Unknown tickers (all named): 404. A fund ` +
            `without a holdings report, a line given in shares with no recent close: 422. Neither JSON nor CSV: 415. ` +
            `"frameworks": ["custom:<slug>"] (alone, no period): every company judged under one of the account's custom ` +
            `screens (its version in force today, named in custom_screen); another account's screen: 404.`,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: inputSchema(portfolio.portfolioBodySchema) },
              'text/csv': {
                schema: { type: 'string', description: 'a header row (Symbol, Quantity, Market Value, Weight, …) and one position a row' },
              },
            },
          },
          responses: {
            ...ok('every holding, each framework and the purification owed', portfolio.portfolioResponseSchema),
            '415': errorAnswer('the body is neither application/json nor text/csv'),
            ...errors(400, 404, 413, 422),
          },
        },
      ),
    },
  };
}

/** `POST /api/purification` (docs/api.md, "Purification"; the method in docs/frameworks/README.md). */
function purificationPaths(): JsonObject {
  return {
    '/api/purification': {
      post: op('Amount to purify for lots actually held, period by period with its evidence', 'screen/history', '2 per lot', {
        description:
          `Walks each lot (1 to ${purification.PURIFICATION_LOTS_MAX}) through the ticker's ` +
          `point-in-time snapshots: each period uses the snapshot in force (its status, the framework's ` +
          `non-permissible income ratio) and the figures of the filing behind it, and reports both methods, ` +
          `dividend-based and income-based, in the listing currency. A period without a snapshot or an input has no ` +
          `amount and says why; the totals are then null and \`complete\` false. Shares ≤ 0, a bad date, sold_on ` +
          `not after bought_on, an unknown framework or too many lots: 400. A framework without purification (not ` +
          `Shariah), a lot starting before 2009-01-01, or a lot no snapshot covers: 422. Unknown ticker: 404.`,
        requestBody: jsonBody(purification.purificationBodySchema),
        responses: {
          ...ok('the amount to purify, its totals by method and every period with its evidence', purification.purificationResponseSchema),
          ...errors(400, 403, 404, 413, 422),
        },
      }),
    },
  };
}

/** `GET /api/zakat/{market}/{ticker}` (docs/frameworks/zakat.md). */
function zakatPaths(screenParams: JsonObject[]): JsonObject {
  return {
    '/api/zakat/{market}/{ticker}': {
      get: op('Zakat on a holding of shares, each figure with its filing', 'screen/history', '2', {
        description:
          "long_term (AAOIFI Shari'ah Standard No. 35): the holding's share of the company's cash + receivables + inventory − " +
          'current liabilities, per share from the filing in force on as_of; trading: the market value. Lunar year 2.5%, solar ' +
          '2.5775%. A figure the filing lacks, or no close within 7 days when one is needed: 200 with status insufficient_data ' +
          'naming it (never a guess). Shares and value both or neither, a non-positive or non-decimal amount, an unknown method ' +
          'or year, a bad as_of, a fund (naming `POST /api/screen/etf`): 400. A repeated parameter: 422. Unknown ticker: 404. ' +
          'Two units: two point-in-time lake reads (the filing in force and the close).',
        parameters: [...screenParams, ...parameters(zakat.zakatQuerySchema, 'query')],
        responses: {
          ...ok('the zakat due and every figure behind it', zakat.zakatResponseSchema),
          ...errors(400, 403, 404, 422),
        },
      }),
    },
  };
}

/** The OpenAPI 3.1 document, generated from the zod schemas that validate requests. */
export function buildOpenApi(baseUrl: string): JsonObject {
  const { schemas } = z.toJSONSchema(z.globalRegistry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any' }) as {
    schemas: Record<string, JsonObject>;
  };
  const componentSchemas = Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutMarker(schema)]));
  const screenParams = parameters(requests.screenPathSchema, 'path');
  return {
    openapi: '3.1.0',
    info: { title: 'faithscreen API', version: '1.0.0', description: API_DESCRIPTION },
    servers: [{ url: baseUrl }],
    paths: {
      '/api/screen/{market}/{ticker}': {
        get: op('Screen one stock (or read its verdict as of a past date)', 'screen', '1; 2 with as_of (tag screen/history)', {
          parameters: [...screenParams, ...parameters(requests.screenQuerySchema, 'query')],
          responses: {
            '200': {
              description: 'the screen report; with `as_of`, the point-in-time snapshot response',
              headers: {
                'X-Refresh': { description: 'with stale data: started, already_running or unavailable', schema: { type: 'string' } },
              },
              content: {
                'application/json': { schema: { oneOf: [ref(responses.screenResponseSchema), ref(responses.snapshotResponseSchema)] } },
              },
            },
            ...errors(400, 403, 404, 422, 503),
          },
        }),
      },
      '/api/screen/{market}/{ticker}/timeline': {
        get: op('Status timeline: when each verdict changed, why, and how close each limit is now', 'screen/history', '3', {
          description:
            'For each framework (filtered and scoped as the screen endpoint), the status changes between ' +
            'consecutive snapshots dated from `from` to `to`, each with the checks that decided it and their values; ' +
            "`flips`, the status at `to` and `since` when it holds, and each limit's latest margin. Read from the " +
            "lake's point-in-time history (docs/api.md, Status timeline). Malformed, non-calendar, pre-2009 or future " +
            "dates and from after to: 400; unknown ticker, or `to` before the ticker's first snapshot (named): 404. " +
            "`framework=custom:<slug>` (alone): the timeline of one of the account's custom screens, each snapshot judged from " +
            "its stored result under the version in force today (`custom_screen`), the base's status beside each change and " +
            "each reason's `origin`; what a backfilled snapshot did not keep is insufficient_data (docs/custom-screens.md, " +
            "Timeline). Another account's screen or an unknown slug: 404; no version in force today: 409.",
          parameters: [...screenParams, ...parameters(requests.timelineQuerySchema, 'query')],
          responses: {
            ...ok('the status timeline', timeline.timelineResponseSchema),
            ...errors(400, 403, 404, 422, 503),
            '409': errorAnswer('framework=custom:<slug> whose first version takes effect after today (the detail names the date)'),
          },
        }),
      },
      '/api/screen/{market}/{ticker}/explain': {
        get: op('Why the frameworks disagree on one stock, check by check', 'screen', '1; 2 with as_of (tag screen/history)', {
          description:
            'For every pair of Shariah methodologies, and of faith frameworks, whose verdicts differ: the checks that set either ' +
            'verdict on a topic where the two come out differently, each side with its figure, denominator, averaging window, ' +
            'limit and margin, in plain words, and what makes them differ (denominator, window, numerator, threshold, a ' +
            'business rule one side lacks, a missing figure, doubt). Pairs that agree while a check sits near its limit are ' +
            'listed apart. Reads the current snapshot as the screen does (never re-screens here) or, with as_of, the one in force ' +
            'then; a backfilled snapshot keeps only deciding checks, so a passing side is recomputed from its ratio and says so. ' +
            'Bad market, ticker, framework or as_of: 400; unknown ticker or no snapshot at as_of: 404; a repeated parameter: 422.',
          parameters: [...screenParams, ...parameters(explain.explainQuerySchema, 'query')],
          responses: { ...ok('the explanation', explain.explainResponseSchema), ...errors(400, 403, 404, 422, 503) },
        }),
      },
      '/api/screen/batch': {
        post: op('Screen up to 100 tickers', 'screen/batch', '1 per ticker served (items answered with an error cost nothing)', {
          requestBody: jsonBody(requests.batchBodySchema),
          responses: { ...ok('per-item results and errors', responses.batchResponseSchema), ...errors(400, 403, 413, 422) },
        }),
      },
      '/api/screen/etf': {
        post: op("Screen a fund's top holdings", 'screen/etf', '1 per 10 holdings returned, rounded up (default 15 → 2)', {
          requestBody: jsonBody(requests.etfBodySchema),
          responses: {
            ...ok('holdings with verdicts and per-framework stats', responses.etfResponseSchema),
            ...errors(400, 403, 404, 413, 422),
          },
        }),
      },
      '/api/screen/compare': {
        get: op('Compare 2 to 4 stocks side by side', 'screen/compare', '1 (counts as one screen)', {
          parameters: parameters(requests.compareQuerySchema, 'query'),
          responses: { ...ok('side-by-side comparison', responses.compareResponseSchema), ...errors(400, 403, 404, 422, 503) },
        }),
      },
      '/api/screen/frameworks': {
        get: op('List the 10 frameworks', 'public', '0', {
          responses: ok('the frameworks (and key_scope when a key is sent)', responses.frameworksResponseSchema),
        }),
      },
      '/api/markets': {
        get: op('List the markets', 'public', '0', {
          responses: ok('every market with its live listing count', responses.marketsResponseSchema),
        }),
      },
      '/api/universe/search': {
        get: op('Search the ticker universe', 'public', '0', {
          parameters: parameters(requests.searchQuerySchema, 'query'),
          responses: { ...ok('matches, best first', responses.searchResponseSchema), ...errors(400, 422) },
        }),
      },
      '/api/export/verdicts': {
        get: op("Export a market's verdicts as Arrow IPC or JSON lines (researchers)", 'export', '10', {
          parameters: parameters(requests.exportQuerySchema, 'query'),
          responses: {
            '200': {
              description: 'one row per ticker: identity, the ten `<id>_status` columns, ratio columns, provenance; `X-Row-Count` header',
              content: {
                'application/vnd.apache.arrow.stream': {
                  schema: { type: 'string', contentMediaType: 'application/vnd.apache.arrow.stream' },
                },
                'application/x-ndjson': { schema: { type: 'string' } },
              },
            },
            ...errors(400, 403, 406, 422),
          },
        }),
      },
      ...attestationPaths(screenParams),
      ...forensicPaths(),
      ...webhookPaths(),
      ...customScreenPaths(),
      ...purificationPaths(),
      ...portfolioPaths(),
      ...zakatPaths(screenParams),
    },
    components: {
      schemas: componentSchemas,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'a key starting fs_live_ (docs/access.md)' },
      },
    },
  };
}
