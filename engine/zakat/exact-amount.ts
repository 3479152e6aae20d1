/**
 * Exact decimal arithmetic for zakat amounts: every figure is read as the decimal it stands for
 * (engine/exact.ts, `decimalOf`) and sums, products and quotients are kept as rationals of
 * BigInts, so an amount is rounded once, at the end, and never by floating point on the way.
 */
import { decimalOf } from '../exact.ts';

/** A rational number `num / den` with `den > 0`. */
export interface Exact {
  readonly num: bigint;
  readonly den: bigint;
}

/** The exact decimal a finite double stands for (`0.1` → 1/10). */
export function exactOf(x: number): Exact {
  return decimalOf(x);
}

export function plus(a: Exact, b: Exact): Exact {
  return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}

export function minus(a: Exact, b: Exact): Exact {
  return { num: a.num * b.den - b.num * a.den, den: a.den * b.den };
}

export function times(a: Exact, b: Exact): Exact {
  return { num: a.num * b.num, den: a.den * b.den };
}

/** `a / b`; `b` must not be zero. */
export function dividedBy(a: Exact, b: Exact): Exact {
  if (b.num === 0n) throw new RangeError('division by zero');
  const sign = b.num < 0n ? -1n : 1n;
  return { num: a.num * b.den * sign, den: a.den * b.num * sign };
}

export function isNegative(a: Exact): boolean {
  return a.num < 0n;
}

export const ZERO: Exact = { num: 0n, den: 1n };

/**
 * `a` rounded half away from zero to `decimals` places, as the double of that decimal
 * (a money amount to cents is `decimals` 2).
 */
export function roundTo(a: Exact, decimals: number): number {
  const scale = 10n ** BigInt(decimals);
  const negative = a.num < 0n;
  const abs = negative ? -a.num : a.num;
  // floor((|a| × scale × 2 + den) / (2 × den)) is |a| × scale rounded half up.
  const scaled = (abs * scale * 2n + a.den) / (2n * a.den);
  const whole = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(decimals, '0');
  const text = decimals > 0 ? `${whole}.${fraction}` : `${whole}`;
  const value = Number(text);
  return negative && value !== 0 ? -value : value;
}
