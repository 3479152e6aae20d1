import { dayNumber, utcDay } from '../../engine/dates.ts';
import type { FrameworkId, ScreeningResult } from '../../engine/index.ts';
import { latestCloses, PORTFOLIO_PRICE_MAX_AGE_DAYS } from '../../warehouse/portfolio-prices.ts';
import { unprocessable } from '../../common/app-error.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';
import type { PurificationReads } from '../../warehouse/purification-reads.ts';
import type { ZakatMethod, ZakatYear } from '../../engine/zakat/zakat-due.ts';
import {
  PORTFOLIO_UNITS_PER_FUND,
  PORTFOLIO_UNITS_PER_PURIFICATION,
  PORTFOLIO_UNITS_PER_STOCK,
  PORTFOLIO_UNITS_PER_ZAKAT,
} from '../schemas/portfolio.ts';
import { portfolioZakat } from './portfolio-zakat.ts';
import type { ScreenService } from '../screen-service.ts';
import {
  checkHoldings,
  resolveHoldings,
  sizeUnitOf,
  type HoldingInput,
  type ResolvedHolding,
  type SizeUnit,
} from './portfolio-holdings.ts';
import {
  countedAs,
  frameworkSummary,
  reasonJson,
  round6,
  rowsNeedingReasons,
  storedVerdicts,
  type Exposure,
  type Verdicts,
} from './portfolio-exposures.ts';
import { customVerdicts } from './portfolio-custom.ts';
import { customScreenBlock, type AppliedScreen } from './screen-custom.ts';
import { purificationFrameworks, purifyPortfolio, type Period } from './portfolio-purification.ts';
import { loadResults } from './screen-ticker.ts';

export interface PortfolioRequest {
  holdings: readonly HoldingInput[];
  /** Already scoped to the caller's grant; empty under a custom screen. */
  frameworks: readonly FrameworkId[];
  /** A custom screen (its version in force today) asked for alone instead of `frameworks`. */
  custom?: AppliedScreen;
  period: Period | null;
  zakat: { method: ZakatMethod; year: ZakatYear } | null;
}

export interface PortfolioOutcome {
  body: Record<string, unknown>;
  /** Units this answer is worth (docs/access.md): what the route may keep of what it charged. */
  units: number;
}

/** Units a portfolio costs: per line by kind, plus the purification walks (a period, holdings in shares) and the zakat reads. */
export function portfolioUnits(kinds: ReadonlyArray<'stock' | 'fund'>, purificationFrameworkCount: number, zakat: boolean): number {
  const stocks = kinds.filter((k) => k === 'stock').length;
  return (
    stocks * PORTFOLIO_UNITS_PER_STOCK +
    (kinds.length - stocks) * PORTFOLIO_UNITS_PER_FUND +
    stocks * purificationFrameworkCount * PORTFOLIO_UNITS_PER_PURIFICATION +
    (zakat ? stocks * PORTFOLIO_UNITS_PER_ZAKAT : 0)
  );
}

/** Each line's value (shares × the latest close, or as given) and price; 422 naming every line that cannot be priced. */
async function valuesOf(lake: PurificationReads, resolved: readonly ResolvedHolding[], unit: SizeUnit, today: string) {
  if (unit === 'weight') return resolved.map(() => ({ value: null, price: null, priceDate: null }));
  if (unit === 'value') return resolved.map((r) => ({ value: r.input.value!, price: null, priceDate: null }));
  const closes = await latestCloses(
    lake.dataDir,
    resolved.map((r) => r.input),
    today,
  );
  const priced = resolved.map((r) => {
    const close = closes.get(`${r.input.market}:${r.input.ticker}`);
    return close ? { value: r.input.shares! * close.close, price: close.close, priceDate: close.date } : null;
  });
  const unpriced = resolved.filter((_, i) => priced[i] === null).map((r) => `${r.input.market}:${r.input.ticker}`);
  if (unpriced.length > 0) {
    throw unprocessable(
      `no close in the last ${PORTFOLIO_PRICE_MAX_AGE_DAYS} days to value the shares of ${unpriced.length} holding(s): ` +
        `${unpriced.join(', ')}; size the portfolio by value or weight instead`,
      'unpriced_holdings',
    );
  }
  return priced.map((p) => p!);
}

/**
 * A portfolio screened from the current snapshots (never re-screened; docs/api.md, "Portfolio"):
 * each line's weight and verdicts with the reasons that decided them, funds looked through to
 * their latest report, and per framework the shares of value by status with the failing
 * companies and why. Unknown, expired, insufficient-data or uncovered parts count as unknown.
 */
export async function screenPortfolio(
  service: ScreenService,
  lake: PurificationReads,
  request: PortfolioRequest,
): Promise<PortfolioOutcome> {
  const unit = sizeUnitOf(request.holdings);
  checkHoldings(request.holdings, unit);
  const now = service.now();
  const today = utcDay(now);
  const expired = (row: VerdictRow | undefined) =>
    row !== undefined && dayNumber(today) - dayNumber(row.snapshotDate) > service.cache.staleWhileRevalidateDays;
  const resolved = await resolveHoldings(service, request.holdings);
  const rows = resolved.map((r) => (r.kind === 'stock' ? service.reads.current(r.input.market, r.input.ticker) : undefined));
  const direct = rows.filter((row): row is VerdictRow => row !== undefined);
  const results = new Map<VerdictRow, ScreeningResult>();
  (await loadResults(service, direct)).forEach((result, i) => results.set(direct[i]!, result));
  const priced = await valuesOf(lake, resolved, unit, today);
  const totalValue = unit === 'weight' ? null : priced.reduce((sum, p) => sum + p.value!, 0);
  const weightSum = resolved.reduce((sum, r) => sum + (r.input.weight ?? 0), 0);
  // Weights within the tolerance are scaled to add up to exactly 1.
  const weights = resolved.map((r, i) => (unit === 'weight' ? r.input.weight! / weightSum : priced[i]!.value! / totalValue!));

  const exposures: Exposure[] = [];
  const fundShares = new Map<ResolvedHolding, Exposure[]>();
  resolved.forEach((r, i) => {
    const weight = weights[i]!;
    if (r.kind === 'stock') {
      exposures.push({ market: r.input.market, ticker: r.input.ticker, via: null, weight, row: rows[i], expired: expired(rows[i]) });
      return;
    }
    const fund = r.fund!;
    const covered = fund.holdings.reduce((sum, h) => sum + h.weight, 0);
    const scale = Math.max(1, covered);
    const inFund: Exposure[] = fund.holdings.map((h) => {
      const row = service.reads.current(h.market, h.ticker);
      return { market: h.market, ticker: h.ticker, via: r.input.ticker, weight: h.weight / scale, row, expired: expired(row) };
    });
    if (covered < 1) inFund.push({ market: null, ticker: null, via: r.input.ticker, weight: 1 - covered, row: undefined, expired: false });
    fundShares.set(r, inFund);
    exposures.push(...inFund.map((e) => ({ ...e, weight: e.weight * weight })));
  });

  const custom = request.custom;
  const columns: Array<{ id: string; verdicts: Verdicts }> = custom
    ? [{ id: `custom:${custom.slug}`, verdicts: await customVerdicts(service, custom, exposures, results) }]
    : request.frameworks.map((id) => ({ id, verdicts: storedVerdicts(id, results) }));
  const needed = rowsNeedingReasons(
    exposures,
    columns.map((c) => c.verdicts),
  ).filter((row) => !results.has(row));
  (await loadResults(service, needed)).forEach((result, i) => results.set(needed[i]!, result));

  const holdings = resolved.map((r, i) => {
    const row = rows[i];
    const inFund = fundShares.get(r);
    const covered = inFund ? inFund.filter((e) => e.ticker !== null).reduce((sum, e) => sum + e.weight, 0) : 0;
    return {
      market: r.input.market,
      ticker: r.input.ticker,
      name: r.listing?.name ?? null,
      kind: r.kind,
      shares: r.input.shares ?? null,
      value: priced[i]!.value === null ? null : round6(priced[i]!.value!),
      price: priced[i]!.price === null ? null : round6(priced[i]!.price!),
      price_date: priced[i]!.priceDate,
      weight: round6(weights[i]!),
      snapshot_date: row?.snapshotDate ?? null,
      expired: expired(row),
      verdicts: row ? Object.fromEntries(columns.map(({ id, verdicts }) => [id, verdicts.status(row)])) : null,
      counted_as:
        r.kind === 'fund'
          ? {}
          : Object.fromEntries(columns.map(({ id, verdicts }) => [id, countedAs({ row, expired: expired(row) }, verdicts)])),
      deciding_reasons: Object.fromEntries(
        columns.map(({ id, verdicts }) => [id, (row && !expired(row) ? verdicts.deciding(row) : []).map(reasonJson)]),
      ),
      look_through: r.fund
        ? {
            as_of: r.fund.asOf,
            holdings_in_report: r.fund.totalHoldings,
            holdings_read: r.fund.holdings.length,
            covered_weight: round6(covered),
            screened_weight: round6(inFund!.filter((e) => e.row && !e.expired).reduce((sum, e) => sum + e.weight, 0)),
          }
        : null,
      frameworks: inFund
        ? Object.fromEntries(
            columns.map(({ id, verdicts }) => {
              const { compliant, non_compliant, questionable, unknown } = frameworkSummary(inFund, verdicts);
              return [id, { compliant, non_compliant, questionable, unknown }];
            }),
          )
        : null,
    };
  });

  const funds = resolved.filter((r) => r.kind === 'fund');
  const fundWeight = resolved.reduce((sum, r, i) => sum + (r.kind === 'fund' ? weights[i]! : 0), 0);
  const fundCovered = holdings.reduce((sum, h) => sum + (h.look_through ? h.weight * h.look_through.covered_weight : 0), 0);
  const purification =
    request.period === null
      ? null
      : await purifyPortfolio(service, lake, {
          stocks: resolved.flatMap((r) =>
            r.kind === 'stock' && r.input.shares !== undefined ? [{ ...r.input, shares: r.input.shares }] : [],
          ),
          funds: funds.length,
          frameworks: request.frameworks,
          period: request.period,
          unit,
          today,
        });
  const purified = purification !== null && purification.computed === true ? purificationFrameworks(request.frameworks).length : 0;
  const zakat =
    request.zakat === null
      ? null
      : await portfolioZakat(lake, {
          stocks: resolved.flatMap((r) => (r.kind === 'stock' && r.listing ? [{ ...r.input, listing: r.listing }] : [])),
          funds: funds.length,
          unit,
          ...request.zakat,
          today,
        });
  return {
    units: portfolioUnits(
      resolved.map((r) => r.kind),
      purified,
      zakat?.computed === true,
    ),
    body: {
      as_of: today,
      sized_by: unit,
      total_value: totalValue === null ? null : round6(totalValue),
      frameworks_returned: columns.map((c) => c.id),
      ...(custom ? { custom_screen: customScreenBlock(custom) } : {}),
      holdings,
      coverage: { funds: funds.length, fund_weight: round6(fundWeight), fund_weight_covered: round6(fundCovered) },
      frameworks: Object.fromEntries(columns.map(({ id, verdicts }) => [id, frameworkSummary(exposures, verdicts)])),
      purification,
      zakat,
    },
  };
}
