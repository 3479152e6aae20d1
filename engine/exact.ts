/**
 * Exact comparison of a ratio with a published limit (docs/frameworks/README.md, "Exact
 * comparison"). Every input figure and every limit is read as the decimal it stands for (its
 * shortest round-trip decimal, e.g. `0.0475`), and sums and quotients of those decimals are
 * compared as rationals of BigInts, so no floating-point rounding decides a verdict at a limit.
 *
 * Fast path: the ratio computed in doubles is within a relative error of (terms + 2) × 2⁻⁵³ of
 * the exact value (non-negative terms only, so no cancellation); when it lies further than
 * 1e-9 (relative) from the limit the double comparison is already right and no BigInt is built.
 */

/** `(Σ numerator) / denominator` of input figures, e.g. (cash + securities) / total assets. */
export interface Fraction {
  readonly numerator: readonly number[];
  readonly denominator: number;
}

/** A non-negative sum of fractions: the exact form of a ratio or of an income share. */
export type ExactSum = readonly Fraction[];

interface Rational {
  num: bigint;
  den: bigint;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/** The decimal a finite double stands for, exactly (`0.1` → 1/10, not the nearest binary fraction). */
export function decimalOf(x: number): Rational {
  const m = DECIMAL.exec(String(x));
  if (m === null) throw new RangeError(`not a finite number: ${x}`);
  const fraction = m[3] ?? '';
  const exponent = Number(m[4] ?? 0) - fraction.length;
  let num = BigInt(m[2]! + fraction);
  if (m[1] === '-') num = -num;
  return exponent >= 0 ? { num: num * 10n ** BigInt(exponent), den: 1n } : { num, den: 10n ** BigInt(-exponent) };
}

function add(a: Rational, b: Rational): Rational {
  return a.den === b.den ? { num: a.num + b.num, den: a.den } : { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}

function rationalOf(sum: ExactSum): Rational {
  let total: Rational = { num: 0n, den: 1n };
  for (const f of sum) {
    let numerator: Rational = { num: 0n, den: 1n };
    for (const n of f.numerator) numerator = add(numerator, decimalOf(n));
    const d = decimalOf(f.denominator);
    // (a/b) / (c/d) = (a·d) / (b·c); denominators of inputs are positive.
    total = add(total, { num: numerator.num * d.den, den: numerator.den * d.num });
  }
  return total;
}

/** Sign of `exact − limit` computed exactly: -1 below, 0 at, 1 above. */
export function compareExact(sum: ExactSum, limit: number): -1 | 0 | 1 {
  const a = rationalOf(sum);
  const b = decimalOf(limit);
  const lhs = a.num * b.den;
  const rhs = b.num * a.den;
  return lhs < rhs ? -1 : lhs > rhs ? 1 : 0;
}

/** Relative distance beyond which the double comparison is certain (see the module comment). */
const FAST_PATH_MARGIN = 1e-9;

/**
 * Sign of `value − limit`, where `value` is the double form of `exact()`: decided in doubles
 * when far from the limit, else exactly. `exact` is only called near the limit.
 */
export function compareToLimit(value: number, limit: number, exact: () => ExactSum): -1 | 0 | 1 {
  const diff = value - limit;
  if (Math.abs(diff) > FAST_PATH_MARGIN * Math.max(Math.abs(limit), Math.abs(value))) return diff < 0 ? -1 : 1;
  return compareExact(exact(), limit);
}

/** True when `value <operator> limit` holds exactly. */
export function satisfies(value: number, operator: '<' | '<=', limit: number, exact: () => ExactSum): boolean {
  const sign = compareToLimit(value, limit, exact);
  return operator === '<' ? sign < 0 : sign <= 0;
}

/**
 * True when the single figure `share <operator> limit` holds. Comparing two doubles is already
 * exact on the decimals they stand for: distinct doubles have disjoint rounding intervals, so
 * their shortest decimals are ordered as they are.
 */
export function shareWithin(share: number, operator: '<' | '<=', limit: number): boolean {
  return operator === '<' ? share < limit : share <= limit;
}

/** The exact form of a single figure already expressed as a share (denominator 1). */
export function shareOf(x: number): Fraction {
  return { numerator: [x], denominator: 1 };
}
