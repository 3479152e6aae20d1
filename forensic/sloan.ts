import { FigureReader, finish, ratio } from './figures.ts';
import type { MethodRef, PeriodSet, ScoreResult, Threshold } from './types.ts';

export interface SloanComponents {
  accruals: number | null;
  average_total_assets: number | null;
}

/** Practitioners' bands of the accrual ratio (Sloan ranked by decile and published no cut-off). */
export const SLOAN_BANDS = { low: 0.1, high: 0.25 } as const;

const THRESHOLDS: Threshold[] = [
  { operator: '<', value: -SLOAN_BANDS.high, reading: 'high negative accruals: cash flow far above earnings' },
  { operator: '<', value: -SLOAN_BANDS.low, reading: 'elevated negative accruals' },
  { operator: '<=', value: SLOAN_BANDS.low, reading: 'low accruals: earnings backed by cash' },
  { operator: '<=', value: SLOAN_BANDS.high, reading: 'elevated accruals' },
  { operator: '>', value: SLOAN_BANDS.high, reading: 'high accruals: earnings largely made of accruals' },
];

const METHOD: MethodRef = {
  name: 'Sloan accrual ratio',
  formula: 'accrual ratio = (net income − operating cash flow) / average total assets',
  source:
    'Sloan, R. G. (1996), "Do Stock Prices Fully Reflect Information in Accruals and Cash Flows about Future Earnings?", The Accounting ' +
    'Review 71(3), 289–315; cash-flow form per Hribar & Collins (2002)',
};

/** Sloan accrual ratio of the current period, scaled by the average of current and prior total assets. */
export function sloanAccrualRatio(periods: PeriodSet): ScoreResult<SloanComponents> {
  const r = new FigureReader(periods);
  const ni = r.get('net_income', 'current');
  const cfo = r.get('operating_cash_flow', 'current');
  const ta = r.get('total_assets', 'current');
  const ta1 = r.get('total_assets', 'prior');
  const components: SloanComponents = {
    accruals: ni === null || cfo === null ? null : ni - cfo,
    average_total_assets: ta === null || ta1 === null ? null : (ta + ta1) / 2,
  };
  const notes = [
    'Sloan (1996) measured accruals from balance-sheet changes; since cash-flow statements exist the cash-flow form is the standard ' +
      'measure (Hribar & Collins 2002)',
    "the bands ±0.10 and ±0.25 are a practitioners' convention, not Sloan's: his paper ranks companies by accrual decile",
  ];
  return finish<SloanComponents>(
    { method: METHOD, reader: r, thresholds: THRESHOLDS, notes, components },
    ratio(components.accruals, components.average_total_assets),
  );
}
