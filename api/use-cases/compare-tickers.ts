import { applyCustomScreen } from '../../engine/custom-screen/apply-custom-screen.ts';
import type { FrameworkId, RatioKey, VerdictStatus } from '../../engine/index.ts';
import { badRequest } from '../../common/app-error.ts';
import type { ScreenService } from '../screen-service.ts';
import { normaliseTicker } from '../validation.ts';
import { customScreenBlock, type AppliedScreen } from './screen-custom.ts';
import { loadResults, serveScreen } from './screen-ticker.ts';
import { reasonsKept } from './snapshot-as-of.ts';

export interface CompareRequest {
  market: string;
  tickers: readonly string[];
  frameworks: readonly FrameworkId[];
  /** Compare under one of the account's custom screens instead (computed from the stored results). */
  custom?: AppliedScreen;
}

/** `AAA,bbb` → `['AAA', 'BBB']`; 2 to 4 distinct valid tickers, else 400. */
export function parseCompareTickers(text: string): string[] {
  const tickers = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0)
    .map((t) => normaliseTicker(t, 'tickers'));
  if (tickers.length < 2 || tickers.length > 4)
    throw badRequest(`tickers: compare takes 2 to 4 comma-separated tickers; got ${tickers.length}`, 'invalid_value');
  const duplicates = tickers.filter((t, i) => tickers.indexOf(t) !== i);
  if (duplicates.length > 0)
    throw badRequest(`tickers: each ticker once; repeated: ${[...new Set(duplicates)].join(', ')}`, 'invalid_value');
  return tickers;
}

/**
 * Side-by-side screen of 2–4 tickers, shaped so differences are easy to read: per framework the
 * status of each ticker and whether they agree, per ratio the value of each ticker, and a
 * `differences` list of the frameworks where they disagree.
 */
export async function compareTickers(service: ScreenService, request: CompareRequest): Promise<Record<string, unknown>> {
  const outcomes = await Promise.all(
    request.tickers.map((ticker) => serveScreen(service, { market: request.market, ticker, forceRefresh: false })),
  );
  const results = await loadResults(
    service,
    outcomes.map((o) => o.row),
  );
  const frameworks: Record<string, Record<string, VerdictStatus | boolean>> = {};
  const differences: Array<{ framework: string; statuses: Record<string, VerdictStatus> }> = [];
  const custom = request.custom;
  const columns: Array<{ id: string; status: (i: number) => VerdictStatus }> = custom
    ? [
        {
          id: `custom:${custom.slug}`,
          status: (i) =>
            applyCustomScreen(
              results[i]!,
              custom.base,
              custom.slug,
              custom.version,
              `${request.market}/${outcomes[i]!.ticker}`,
              reasonsKept(outcomes[i]!.row),
            ).status,
        },
      ]
    : request.frameworks.map((id) => ({ id, status: (i) => outcomes[i]!.row.statuses[id] }));
  for (const { id, status } of columns) {
    const statuses = Object.fromEntries(outcomes.map((o, i) => [o.ticker, status(i)])) as Record<string, VerdictStatus>;
    const agree = new Set(Object.values(statuses)).size === 1;
    frameworks[id] = { ...statuses, agree };
    if (!agree) differences.push({ framework: id, statuses });
  }
  const ratioNames = Object.keys(results[0]!.ratios) as RatioKey[];
  const ratios = Object.fromEntries(
    ratioNames.map((name) => [name, Object.fromEntries(results.map((r, i) => [outcomes[i]!.ticker, r.ratios[name]]))]),
  );
  return {
    market: request.market,
    tickers: outcomes.map((o) => o.ticker),
    frameworks_returned: columns.map((c) => c.id),
    ...(custom ? { custom_screen: customScreenBlock(custom) } : {}),
    companies: Object.fromEntries(
      outcomes.map((o, i) => [
        o.ticker,
        {
          company_name: o.companyName || results[i]!.company_name,
          snapshot_date: o.row.snapshotDate,
          from_cache: o.fromCache,
          cache_age_days: o.cacheAgeDays,
          stale: o.stale,
          currency: results[i]!.market_cap.currency,
          market_cap: results[i]!.market_cap.spot,
          purification_per_share: [...request.frameworks, custom?.base ?? ''].some((id) => id.startsWith('shariah_'))
            ? results[i]!.purification_per_share
            : null,
          synthetic: results[i]!.provenance.synthetic,
        },
      ]),
    ),
    frameworks,
    ratios,
    differences,
    all_agree: differences.length === 0,
  };
}
