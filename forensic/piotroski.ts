import { FigureReader, finish, holds, ratio } from './figures.ts';
import type { MethodRef, PeriodSet, ScoreResult, Threshold } from './types.ts';

export const PIOTROSKI_SIGNALS = [
  'roa',
  'cfo',
  'delta_roa',
  'accrual',
  'delta_lever',
  'delta_liquid',
  'eq_offer',
  'delta_margin',
  'delta_turn',
] as const;
export type PiotroskiSignalName = (typeof PIOTROSKI_SIGNALS)[number];

/** One binary signal: the measure it tests, the rule, and 1/0 (null when the measure is unknown). */
export interface PiotroskiSignal {
  score: 0 | 1 | null;
  measure: number | null;
  rule: string;
}

export type PiotroskiSignals = Record<PiotroskiSignalName, PiotroskiSignal>;

const THRESHOLDS: Threshold[] = [
  { operator: '>=', value: 8, reading: 'high: strong fundamentals' },
  { operator: '<=', value: 1, reading: 'low: weak fundamentals' },
  { operator: '>', value: 1, reading: 'middle' },
];

const METHOD: MethodRef = {
  name: 'Piotroski F-Score',
  formula: 'F = F_ROA + F_CFO + F_ΔROA + F_ACCRUAL + F_ΔLEVER + F_ΔLIQUID + EQ_OFFER + F_ΔMARGIN + F_ΔTURN (each 0 or 1)',
  source:
    'Piotroski, J. D. (2000), "Value Investing: The Use of Historical Financial Statement Information to Separate Winners from ' +
    'Losers", Journal of Accounting Research 38, 1–41',
};

const avg = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : (a + b) / 2);
const diff = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a - b);

function signal(measure: number | null, rule: string, passes: (m: number) => boolean): PiotroskiSignal {
  return { score: measure === null ? null : passes(measure) ? 1 : 0, measure, rule };
}

const positive = (m: number): boolean => holds(m, { operator: '>', value: 0 });
const negative = (m: number): boolean => holds(m, { operator: '<', value: 0 });

/**
 * Piotroski's nine signals for the current period against the prior one (the prior year's
 * ROA and asset turnover need the assets of the year before it). Equity issuance is proxied by
 * shares outstanding: more shares than a year earlier counts as an issue.
 */
export function piotroskiFScore(periods: PeriodSet): ScoreResult<PiotroskiSignals> {
  const r = new FigureReader(periods);
  const ni = r.get('net_income', 'current');
  const ni1 = r.get('net_income', 'prior');
  const cfo = r.get('operating_cash_flow', 'current');
  const ta = r.get('total_assets', 'current');
  const ta1 = r.get('total_assets', 'prior');
  const ta2 = r.get('total_assets', 'prior2');
  const ltd = r.get('long_term_debt', 'current');
  const ltd1 = r.get('long_term_debt', 'prior');
  const ca = r.get('current_assets', 'current');
  const ca1 = r.get('current_assets', 'prior');
  const cl = r.get('current_liabilities', 'current');
  const cl1 = r.get('current_liabilities', 'prior');
  const shares = r.get('shares_outstanding', 'current');
  const shares1 = r.get('shares_outstanding', 'prior');
  const gp = r.get('gross_profit', 'current');
  const gp1 = r.get('gross_profit', 'prior');
  const sales = r.get('total_revenue', 'current');
  const sales1 = r.get('total_revenue', 'prior');

  const roa = ratio(ni, ta1);
  const roa1 = ratio(ni1, ta2);
  const cfoRoa = ratio(cfo, ta1);
  const signals: PiotroskiSignals = {
    roa: signal(roa, 'net income / beginning-of-year total assets > 0', positive),
    cfo: signal(cfoRoa, 'operating cash flow / beginning-of-year total assets > 0', positive),
    delta_roa: signal(diff(roa, roa1), 'ROA − prior-year ROA > 0', positive),
    accrual: signal(diff(cfoRoa, roa), 'CFO / beginning assets − ROA > 0 (cash flow exceeds earnings)', positive),
    delta_lever: signal(
      diff(ratio(ltd, avg(ta, ta1)), ratio(ltd1, avg(ta1, ta2))),
      'long-term debt / average total assets fell: change < 0',
      negative,
    ),
    delta_liquid: signal(diff(ratio(ca, cl), ratio(ca1, cl1)), 'current ratio rose: change > 0', positive),
    eq_offer: signal(diff(shares, shares1), 'no equity issued: change in shares outstanding ≤ 0', (m) =>
      holds(m, { operator: '<=', value: 0 }),
    ),
    delta_margin: signal(diff(ratio(gp, sales), ratio(gp1, sales1)), 'gross margin rose: change > 0', positive),
    delta_turn: signal(diff(ratio(sales, ta1), ratio(sales1, ta2)), 'asset turnover (sales / beginning assets) rose: change > 0', positive),
  };
  const scores = PIOTROSKI_SIGNALS.map((name) => signals[name].score);
  const f = scores.some((s) => s === null) ? null : scores.reduce<number>((sum, s) => sum + s!, 0);
  const notes = ['EQ_OFFER is proxied by shares outstanding (the filings carry no issuance figure)'];
  return finish<PiotroskiSignals>({ method: METHOD, reader: r, thresholds: THRESHOLDS, notes, components: signals }, f);
}
