import { z } from 'zod';
import { PURIFICATION_UNITS_PER_LOT } from '../routes/purification.ts';
import { TIMELINE_COST } from '../routes/screen.ts';
import { certIdPathSchema, verificationResultSchema } from '../schemas/attestations.ts';
import { customScreenListSchema, customScreenSchema, customScreenSlugPathSchema } from '../schemas/custom-screens.ts';
import { explainQuerySchema, explainResponseSchema } from '../schemas/explain.ts';
import {
  PORTFOLIO_UNITS_PER_FUND,
  PORTFOLIO_UNITS_PER_PURIFICATION,
  PORTFOLIO_UNITS_PER_STOCK,
  PORTFOLIO_UNITS_PER_ZAKAT,
  portfolioBodySchema,
  portfolioResponseSchema,
} from '../schemas/portfolio.ts';
import { purificationBodySchema, purificationResponseSchema } from '../schemas/purification.ts';
import { compareQuerySchema, screenPathSchema, screenQuerySchema, searchQuerySchema, timelineQuerySchema } from '../schemas/requests.ts';
import {
  compareResponseSchema,
  frameworksResponseSchema,
  marketsResponseSchema,
  screenResponseSchema,
  searchResponseSchema,
} from '../schemas/responses.ts';
import { timelineResponseSchema } from '../schemas/timeline.ts';
import { zakatQuerySchema, zakatResponseSchema } from '../schemas/zakat.ts';
import { ZAKAT_UNITS } from '../routes/zakat.ts';
import { defineTool, segment, type McpTool } from './tool-specs.ts';

/**
 * The MCP tools, one per REST call. Each takes the route's own request schema (path and query
 * merged into one argument object) and builds the request the route expects.
 */

const searchUniverse = defineTool({
  name: 'search_universe',
  title: 'Search the universe',
  summary: 'Finds listed stocks and funds by ticker prefix or part of the company name, best match first.',
  route: 'GET /api/universe/search',
  cost: 'nothing (public)',
  input: searchQuerySchema,
  response: searchResponseSchema,
  request: (args) => ({ method: 'GET', path: '/api/universe/search', query: { q: args.q, market: args.market, limit: args.limit } }),
  readOnly: true,
});

const listFrameworks = defineTool({
  name: 'list_frameworks',
  title: 'List the frameworks',
  summary: 'Lists the screening frameworks (their ids, labels and traditions) and what your key may see.',
  route: 'GET /api/screen/frameworks',
  cost: 'nothing (public)',
  input: z.object({}),
  response: frameworksResponseSchema,
  request: () => ({ method: 'GET', path: '/api/screen/frameworks' }),
  readOnly: true,
});

const listMarkets = defineTool({
  name: 'list_markets',
  title: 'List the markets',
  summary: 'Lists the markets (market keys, currencies, exchanges) with their live listing counts.',
  route: 'GET /api/markets',
  cost: 'nothing (public)',
  input: z.object({}),
  response: marketsResponseSchema,
  request: () => ({ method: 'GET', path: '/api/markets' }),
  readOnly: true,
});

const listCustomScreens = defineTool({
  name: 'list_custom_screens',
  title: "List the account's custom screens",
  summary:
    "Lists your account's own screens (a base framework plus your exclusions and stricter limits), each asked for by " +
    'framework=custom:<slug> in screen_ticker.',
  route: 'GET /api/screens',
  cost: 'nothing',
  input: z.object({}),
  response: customScreenListSchema,
  request: () => ({ method: 'GET', path: '/api/screens' }),
  readOnly: true,
});

const getCustomScreen = defineTool({
  name: 'get_custom_screen',
  title: 'A custom screen and its versions',
  summary: "One of your account's custom screens with every version and the day each took effect.",
  route: 'GET /api/screens/{slug}',
  cost: 'nothing',
  input: customScreenSlugPathSchema,
  response: customScreenSchema,
  request: (args) => ({ method: 'GET', path: `/api/screens/${segment(args.slug)}` }),
  readOnly: true,
});

const screenTicker = defineTool({
  name: 'screen_ticker',
  title: 'Screen a ticker',
  summary:
    "Screens one ticker under every framework your key may see (or those named in framework): each framework's verdict, score, " +
    'reasons with their figures, filing and price dates; with as_of, the point-in-time verdict stored for that day.',
  route: 'GET /api/screen/{market}/{ticker}',
  cost: '1 unit, 2 with as_of',
  input: screenPathSchema.extend(screenQuerySchema.shape),
  response: screenResponseSchema,
  request: ({ market, ticker, ...query }) => ({ method: 'GET', path: `/api/screen/${segment(market)}/${segment(ticker)}`, query }),
  readOnly: false,
});

const compareTickers = defineTool({
  name: 'compare_tickers',
  title: 'Compare tickers across methodologies',
  summary:
    'Compares 2 to 4 tickers of one market side by side under each framework: statuses, whether the frameworks agree, and the ratios.',
  route: 'GET /api/screen/compare',
  cost: '1 unit',
  input: compareQuerySchema,
  response: compareResponseSchema,
  request: (args) => ({ method: 'GET', path: '/api/screen/compare', query: args }),
  readOnly: true,
});

const explainDisagreements = defineTool({
  name: 'explain_disagreements',
  title: 'Explain why methodologies disagree',
  summary:
    "Explains, for one ticker, each pair of methodologies whose verdicts differ: the checks that set either verdict, each side's " +
    'figure, denominator, window, limit and margin, and what makes them differ; agreements that hang on a near limit are listed apart.',
  route: 'GET /api/screen/{market}/{ticker}/explain',
  cost: '1 unit, 2 with as_of',
  input: screenPathSchema.extend(explainQuerySchema.shape),
  response: explainResponseSchema,
  request: ({ market, ticker, ...query }) => ({
    method: 'GET',
    path: `/api/screen/${segment(market)}/${segment(ticker)}/explain`,
    query,
  }),
  readOnly: true,
});

const statusTimeline = defineTool({
  name: 'status_timeline',
  title: 'Status timeline',
  summary:
    "A ticker's status history per framework: the current status and since when, each change with the checks that caused it, " +
    "and each numeric limit's margin.",
  route: 'GET /api/screen/{market}/{ticker}/timeline',
  cost: `${TIMELINE_COST} units`,
  input: screenPathSchema.extend(timelineQuerySchema.shape),
  response: timelineResponseSchema,
  request: ({ market, ticker, ...query }) => ({
    method: 'GET',
    path: `/api/screen/${segment(market)}/${segment(ticker)}/timeline`,
    query,
  }),
  readOnly: true,
});

const purifyHolding = defineTool({
  name: 'purify_holding',
  title: 'Purification amount',
  summary:
    'How much to purify (give away) for a holding under one Shariah framework, lot by lot and period by period, with the filing ' +
    'behind each period; the total is null when any input is missing.',
  route: 'POST /api/purification',
  cost: `${PURIFICATION_UNITS_PER_LOT} units per lot`,
  input: purificationBodySchema,
  response: purificationResponseSchema,
  request: (args) => ({ method: 'POST', path: '/api/purification', body: args }),
  readOnly: true,
});

const zakatHolding = defineTool({
  name: 'zakat_holding',
  title: 'Zakat on a holding',
  summary:
    "The zakat due on a holding of one company's shares: by the company's zakatable assets per share (AAOIFI SS 35, long_term) " +
    'or on market value (trading), each figure with its filing; insufficient_data naming a missing figure.',
  route: 'GET /api/zakat/{market}/{ticker}',
  cost: `${ZAKAT_UNITS} units`,
  input: screenPathSchema.extend(zakatQuerySchema.shape),
  response: zakatResponseSchema,
  request: ({ market, ticker, ...query }) => ({ method: 'GET', path: `/api/zakat/${segment(market)}/${segment(ticker)}`, query }),
  readOnly: true,
});

const screenPortfolio = defineTool({
  name: 'screen_portfolio',
  title: 'Screen a portfolio',
  summary:
    'Screens a portfolio of up to 500 holdings (funds looked through): per holding its verdicts and the reasons that decided them, ' +
    'per framework the share of value compliant, non-compliant, questionable and unknown; with a period, the purification owed; ' +
    'with zakat, the zakat due on each stock held.',
  route: 'POST /api/portfolio',
  cost:
    `${PORTFOLIO_UNITS_PER_STOCK} unit per stock line and ${PORTFOLIO_UNITS_PER_FUND} per fund line, plus ` +
    `${PORTFOLIO_UNITS_PER_PURIFICATION} per stock and Shariah framework purified and ${PORTFOLIO_UNITS_PER_ZAKAT} per stock for zakat; ` +
    'units the answer did not use are given back',
  input: portfolioBodySchema,
  response: portfolioResponseSchema,
  request: (args) => ({ method: 'POST', path: '/api/portfolio', body: args }),
  readOnly: true,
});

const verifyCertificate = defineTool({
  name: 'verify_certificate',
  title: 'Verify a certificate',
  summary: 'Verifies a compliance certificate by its id: signature, revocation and whether its snapshot still matches.',
  route: 'GET /api/attest/verify/{cert_id}',
  cost: 'nothing (public)',
  input: certIdPathSchema,
  response: verificationResultSchema,
  request: (args) => ({ method: 'GET', path: `/api/attest/verify/${segment(args.cert_id)}` }),
  readOnly: true,
});

/** Every tool the MCP server offers, in the order a client lists them. */
export const TOOLS: readonly McpTool[] = [
  searchUniverse,
  listFrameworks,
  listMarkets,
  listCustomScreens,
  getCustomScreen,
  screenTicker,
  compareTickers,
  explainDisagreements,
  statusTimeline,
  purifyHolding,
  zakatHolding,
  screenPortfolio,
  verifyCertificate,
];
