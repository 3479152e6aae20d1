/**
 * EDGAR's state and country codes (the `stateOfIncorporation` and `addresses.*.stateOrCountry`
 * fields of the submissions JSON) as ISO 3166-1 alpha-2 countries. EDGAR writes US states as
 * their postal codes (so `IL` is Illinois, not Israel), Canadian provinces as `A0`–`B0`, and
 * other countries as its own two-character codes (Israel is `L3`). Only the codes listed here
 * are read; any other leaves the country unknown rather than guessed.
 */

const US_STATES =
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY';

/** EDGAR code → ISO country, for codes that are not US states. */
const EDGAR_COUNTRIES: Readonly<Record<string, string>> = Object.freeze({
  // Canadian provinces and territories, and Canada (federal level)
  A0: 'CA',
  A1: 'CA',
  A2: 'CA',
  A3: 'CA',
  A4: 'CA',
  A5: 'CA',
  A6: 'CA',
  A7: 'CA',
  A8: 'CA',
  A9: 'CA',
  B0: 'CA',
  Z4: 'CA',
  // US territories with codes of their own
  PR: 'PR',
  VI: 'VI',
  GU: 'GU',
  L3: 'IL',
  X0: 'GB',
  E9: 'KY',
  D0: 'BM',
  D8: 'VG',
  L2: 'IE',
  F4: 'CN',
  K3: 'HK',
  C3: 'AU',
  M0: 'JP',
  I0: 'FR',
  P7: 'NL',
  N4: 'LU',
  V8: 'CH',
  U0: 'SG',
});

const US = new Set(US_STATES.split(' '));

/** The ISO country of an EDGAR state or country code; null when empty or not listed here. */
export function countryOfEdgarCode(code: string | null | undefined): string | null {
  const c = (code ?? '').trim().toUpperCase();
  if (c === '') return null;
  if (US.has(c)) return 'US';
  return EDGAR_COUNTRIES[c] ?? null;
}

/**
 * The issuer's domicile (ISO country): Israel when it is incorporated or has its business address
 * there (the halakhic screen's presumption turns on Israel), else its country of incorporation,
 * else the country of its business address; null when neither is known.
 */
export function domicileOfEdgarIssuer(
  stateOfIncorporation: string | null | undefined,
  businessStateOrCountry: string | null | undefined,
): string | null {
  const incorporated = countryOfEdgarCode(stateOfIncorporation);
  const business = countryOfEdgarCode(businessStateOrCountry);
  if (incorporated === 'IL' || business === 'IL') return 'IL';
  return incorporated ?? business;
}
