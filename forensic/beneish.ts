import { FigureReader, finish, ratio } from './figures.ts';
import type { MethodRef, PeriodSet, ScoreResult, Threshold } from './types.ts';

/** The eight indices of the Beneish model (year t against year t−1). */
export interface BeneishIndices {
  dsri: number | null;
  gmi: number | null;
  aqi: number | null;
  sgi: number | null;
  depi: number | null;
  sgai: number | null;
  lvgi: number | null;
  tata: number | null;
}

/** Beneish (1999) eight-variable model coefficients. */
export const BENEISH_COEFFICIENTS = {
  intercept: -4.84,
  dsri: 0.92,
  gmi: 0.528,
  aqi: 0.404,
  sgi: 0.892,
  depi: 0.115,
  sgai: -0.172,
  lvgi: -0.327,
  tata: 4.679,
} as const;

/** Beneish's cut-off for the eight-variable model: above −1.78 flags a likely manipulator. */
export const BENEISH_CUTOFF = -1.78;

const THRESHOLDS: Threshold[] = [
  { operator: '>', value: BENEISH_CUTOFF, reading: 'likely manipulator' },
  { operator: '<=', value: BENEISH_CUTOFF, reading: 'unlikely manipulator' },
];

const METHOD: MethodRef = {
  name: 'Beneish M-Score (eight-variable model)',
  formula: 'M = −4.84 + 0.920·DSRI + 0.528·GMI + 0.404·AQI + 0.892·SGI + 0.115·DEPI − 0.172·SGAI + 4.679·TATA − 0.327·LVGI',
  source:
    'Beneish, M. D. (1999), "The Detection of Earnings Manipulation", Financial Analysts Journal 55(5), 24–36; TATA in the cash-flow ' +
    'form of Beneish, Lee & Nichols (2013)',
};

/**
 * Beneish M-Score of the current period against the prior one. AQI counts long-term
 * securities with current assets and PP&E when both periods report them (Beneish, Lee &
 * Nichols 2013); otherwise it uses the 1999 definition (current assets and PP&E), and says so.
 */
export function beneishMScore(periods: PeriodSet): ScoreResult<BeneishIndices> {
  const r = new FigureReader(periods);
  const sales = r.get('total_revenue', 'current');
  const sales1 = r.get('total_revenue', 'prior');
  const rec = r.get('accounts_receivable', 'current');
  const rec1 = r.get('accounts_receivable', 'prior');
  const gp = r.get('gross_profit', 'current');
  const gp1 = r.get('gross_profit', 'prior');
  const ca = r.get('current_assets', 'current');
  const ca1 = r.get('current_assets', 'prior');
  const ppe = r.get('ppe_net', 'current');
  const ppe1 = r.get('ppe_net', 'prior');
  const ta = r.get('total_assets', 'current');
  const ta1 = r.get('total_assets', 'prior');
  const dep = r.get('depreciation', 'current');
  const dep1 = r.get('depreciation', 'prior');
  const sga = r.get('sga_expense', 'current');
  const sga1 = r.get('sga_expense', 'prior');
  const cl = r.get('current_liabilities', 'current');
  const cl1 = r.get('current_liabilities', 'prior');
  const ltd = r.get('long_term_debt', 'current');
  const ltd1 = r.get('long_term_debt', 'prior');
  const ni = r.get('net_income', 'current');
  const cfo = r.get('operating_cash_flow', 'current');
  const notes: string[] = [];
  const securitiesBoth = periods.current?.figures.long_term_investments != null && periods.prior?.figures.long_term_investments != null;
  const sec = securitiesBoth ? r.optional('long_term_investments', 'current') : 0;
  const sec1 = securitiesBoth ? r.optional('long_term_investments', 'prior') : 0;
  notes.push(
    securitiesBoth
      ? 'AQI = [1 − (current assets + PP&E + long-term securities) / total assets]_t ÷ [same]_t−1'
      : 'AQI uses the 1999 definition [1 − (current assets + PP&E) / total assets]: long-term securities are not reported for both years',
  );
  notes.push('TATA = (net income − operating cash flow) / total assets_t');

  const add = (...values: Array<number | null>): number | null =>
    values.some((v) => v === null) ? null : values.reduce<number>((s, v) => s + v!, 0);
  const nonCurrentShare = (c: number | null, p: number | null, s: number | null, t: number | null): number | null => {
    const q = ratio(add(c, p, s), t);
    return q === null ? null : 1 - q;
  };
  const depRate = (d: number | null, p: number | null): number | null => ratio(d, add(d, p));
  const indices: BeneishIndices = {
    dsri: ratio(ratio(rec, sales), ratio(rec1, sales1)),
    gmi: ratio(ratio(gp1, sales1), ratio(gp, sales)),
    aqi: ratio(nonCurrentShare(ca, ppe, sec, ta), nonCurrentShare(ca1, ppe1, sec1, ta1)),
    sgi: ratio(sales, sales1),
    depi: ratio(depRate(dep1, ppe1), depRate(dep, ppe)),
    sgai: ratio(ratio(sga, sales), ratio(sga1, sales1)),
    lvgi: ratio(ratio(add(cl, ltd), ta), ratio(add(cl1, ltd1), ta1)),
    tata: ratio(add(ni, cfo === null ? null : -cfo), ta),
  };
  const parts = Object.values(indices);
  const m = parts.some((v) => v === null)
    ? null
    : BENEISH_COEFFICIENTS.intercept +
      (Object.keys(indices) as Array<keyof BeneishIndices>).reduce((s, k) => s + BENEISH_COEFFICIENTS[k] * indices[k]!, 0);
  return finish<BeneishIndices>({ method: METHOD, reader: r, thresholds: THRESHOLDS, notes, components: indices }, m);
}
