import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../common/money.ts';

// Intl separates the code from the number with a no-break space: compare with plain spaces.
const plain = (text: string) => text.replaceAll('\u00a0', ' ');

describe('formatMoney', () => {
  it.each([
    [0.07124257966959159, 'USD', 'USD 0.0712'],
    [0.5, 'USD', 'USD 0.50'],
    [0.999, 'USD', 'USD 0.999'],
    [0.9999, 'USD', 'USD 1.00'],
    [0, 'USD', 'USD 0.00'],
    [1234.5678, 'USD', 'USD 1,234.57'],
    [1234567.891, 'GBP', 'GBP 1,234,567.89'],
    [0.000012345, 'EUR', 'EUR 0.0000123'],
    [1234.5678, 'JPY', 'JPY 1,235'],
    [0.0712, 'jpy', 'JPY 0.0712'],
    [0.5, 'KWD', 'KWD 0.500'],
    [-0.0712, 'USD', '-USD 0.0712'],
  ])('when %s %s is shown, then it reads %s', (amount, currency, shown) => {
    expect(plain(formatMoney(amount, currency))).toBe(shown);
  });

  it.each([null, undefined, '', 'US', 'dollars', 'XYZ'])(
    'when the currency is %j, then the amount says the currency is unknown',
    (currency) => {
      expect(formatMoney(0.07124257966959159, currency)).toBe('0.0712 (currency unknown)');
    },
  );
});
