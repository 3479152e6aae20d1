import { FigureReader, finish, ratio } from './figures.ts';
import type { CompanyProfile, MethodRef, PeriodSet, ScoreResult, Threshold } from './types.ts';

export type AltmanVariant = 'original' | 'private' | 'non_manufacturing';

/** The ratios of the chosen variant (X5 is not part of Z''). */
export interface AltmanComponents {
  variant: AltmanVariant;
  x1_working_capital_to_assets: number | null;
  x2_retained_earnings_to_assets: number | null;
  x3_ebit_to_assets: number | null;
  /** Market value of equity / total liabilities (original), book equity / total liabilities (Z', Z''). */
  x4_equity_to_liabilities: number | null;
  x5_sales_to_assets: number | null;
}

interface VariantSpec {
  coefficients: [number, number, number, number, number];
  distress: number;
  safe: number;
  method: MethodRef;
}

export const ALTMAN_VARIANTS: Readonly<Record<AltmanVariant, VariantSpec>> = {
  original: {
    coefficients: [1.2, 1.4, 3.3, 0.6, 1.0],
    distress: 1.81,
    safe: 2.99,
    method: {
      name: 'Altman Z-Score (1968, public manufacturers)',
      formula: 'Z = 1.2·X1 + 1.4·X2 + 3.3·X3 + 0.6·X4 + 1.0·X5, X4 = market value of equity / total liabilities',
      source:
        'Altman, E. I. (1968), "Financial Ratios, Discriminant Analysis and the Prediction of Corporate Bankruptcy", Journal of Finance 23(4), 589–609',
    },
  },
  private: {
    coefficients: [0.717, 0.847, 3.107, 0.42, 0.998],
    distress: 1.23,
    safe: 2.9,
    method: {
      name: "Altman Z'-Score (1983, private manufacturers)",
      formula: "Z' = 0.717·X1 + 0.847·X2 + 3.107·X3 + 0.420·X4 + 0.998·X5, X4 = book equity / total liabilities",
      source:
        'Altman, E. I. (1983), Corporate Financial Distress, Wiley; Altman & Hotchkiss (2006), Corporate Financial Distress and Bankruptcy, 3rd ed.',
    },
  },
  non_manufacturing: {
    coefficients: [6.56, 3.26, 6.72, 1.05, 0],
    distress: 1.1,
    safe: 2.6,
    method: {
      name: "Altman Z''-Score (non-manufacturers)",
      formula: "Z'' = 6.56·X1 + 3.26·X2 + 6.72·X3 + 1.05·X4, X4 = book equity / total liabilities",
      source:
        'Altman, E. I. (1983), Corporate Financial Distress, Wiley; Altman & Hotchkiss (2006), Corporate Financial Distress and Bankruptcy, 3rd ed.',
    },
  },
};

function thresholdsOf(spec: VariantSpec): Threshold[] {
  return [
    { operator: '<', value: spec.distress, reading: 'distress zone' },
    { operator: '<=', value: spec.safe, reading: 'grey zone' },
    { operator: '>', value: spec.safe, reading: 'safe zone' },
  ];
}

const sicNumber = (sic: string | null): number | null => (sic !== null && /^\d{4}$/.test(sic) ? Number(sic) : null);

/** SIC 6000–6799: finance, insurance and real estate, for which Altman's models were not built. */
export function isFinancialSic(sic: string | null): boolean {
  const n = sicNumber(sic);
  return n !== null && n >= 6000 && n <= 6799;
}

/**
 * The variant that fits the company: manufacturers (SIC 2000–3999) get the original Z when a
 * market value of equity is known (a close on or before the period end and shares), else Z'
 * (book equity); every other company, and an unknown SIC, gets Z''.
 */
export function altmanVariantFor(profile: CompanyProfile, periods: PeriodSet): AltmanVariant {
  const n = sicNumber(profile.sic);
  const manufacturer = n !== null && n >= 2000 && n <= 3999;
  if (!manufacturer) return 'non_manufacturing';
  const current = periods.current;
  const hasMarketValue = current !== null && current.close !== null && current.figures.shares_outstanding != null;
  return hasMarketValue ? 'original' : 'private';
}

/** Altman Z-Score of the current period in the variant that fits the company; not applicable to financial companies. */
export function altmanZScore(profile: CompanyProfile, periods: PeriodSet): ScoreResult<AltmanComponents> {
  const variant = altmanVariantFor(profile, periods);
  const spec = ALTMAN_VARIANTS[variant];
  const r = new FigureReader(periods);
  if (isFinancialSic(profile.sic)) {
    return {
      status: 'not_applicable',
      value: null,
      reading: null,
      reason:
        `SIC ${profile.sic} is finance, insurance or real estate (6000–6799): Altman's models were estimated on non-financial ` +
        `companies, whose balance sheets do not carry deposits or policy liabilities`,
      method: spec.method,
      periods: [],
      inputs: [],
      thresholds: thresholdsOf(spec),
      notes: [],
    };
  }
  const ta = r.get('total_assets', 'current');
  const ca = r.get('current_assets', 'current');
  const cl = r.get('current_liabilities', 'current');
  const re = r.get('retained_earnings', 'current');
  const ebit = r.get('ebit', 'current');
  const tl = r.get('total_liabilities', 'current');
  const equity = variant === 'original' ? r.marketValue('current') : r.get('total_equity', 'current');
  const sales = variant === 'non_manufacturing' ? null : r.get('total_revenue', 'current');
  const components: AltmanComponents = {
    variant,
    x1_working_capital_to_assets: ratio(ca === null || cl === null ? null : ca - cl, ta),
    x2_retained_earnings_to_assets: ratio(re, ta),
    x3_ebit_to_assets: ratio(ebit, ta),
    x4_equity_to_liabilities: ratio(equity, tl),
    x5_sales_to_assets: variant === 'non_manufacturing' ? null : ratio(sales, ta),
  };
  const xs = [
    components.x1_working_capital_to_assets,
    components.x2_retained_earnings_to_assets,
    components.x3_ebit_to_assets,
    components.x4_equity_to_liabilities,
    components.x5_sales_to_assets,
  ];
  const used = variant === 'non_manufacturing' ? xs.slice(0, 4) : xs;
  const z = used.some((x) => x === null) ? null : used.reduce<number>((s, x, i) => s + spec.coefficients[i]! * x!, 0);
  const notes = [`variant ${variant}: ${variantReason(variant, profile)}`];
  // X5 is not part of Z'': null by design, not missing.
  const unused = variant === 'non_manufacturing' ? ['x5_sales_to_assets'] : [];
  return finish<AltmanComponents>({ method: spec.method, reader: r, thresholds: thresholdsOf(spec), notes, components, unused }, z);
}

function variantReason(variant: AltmanVariant, profile: CompanyProfile): string {
  if (variant === 'original') return `SIC ${profile.sic} is manufacturing (2000–3999) and a market value of equity is known`;
  if (variant === 'private')
    return `SIC ${profile.sic} is manufacturing (2000–3999) but no market value of equity is known at the period end, so book equity is used`;
  return profile.sic === null
    ? 'the SIC code is unknown, so the general non-manufacturing model is used'
    : `SIC ${profile.sic} is not manufacturing (2000–3999)`;
}
