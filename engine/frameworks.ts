/** The 10 canonical frameworks, in the order the API lists them (docs/frameworks/README.md). */

export const FRAMEWORK_IDS = [
  'shariah_aaoifi',
  'shariah_djim',
  'shariah_sp',
  'shariah_ftse',
  'shariah_msci',
  'christian_bri',
  'catholic_usccb',
  'jewish_halakhic',
  'lds_mormon',
  'service_consensus',
] as const;

export type FrameworkId = (typeof FRAMEWORK_IDS)[number];

export const SHARIAH_FRAMEWORK_IDS = [
  'shariah_aaoifi',
  'shariah_djim',
  'shariah_sp',
  'shariah_ftse',
  'shariah_msci',
] as const satisfies readonly FrameworkId[];

export type ShariahFrameworkId = (typeof SHARIAH_FRAMEWORK_IDS)[number];

export interface FrameworkInfo {
  id: FrameworkId;
  label: string;
  tradition: string;
}

export const FRAMEWORKS: readonly FrameworkInfo[] = Object.freeze(
  [
    { id: 'shariah_aaoifi', label: "AAOIFI Shari'ah Standard No. 21 (Financial Papers)", tradition: 'Islamic' },
    { id: 'shariah_djim', label: 'Dow Jones Islamic Market Indices methodology', tradition: 'Islamic' },
    { id: 'shariah_sp', label: 'S&P Shariah Indices methodology', tradition: 'Islamic' },
    { id: 'shariah_ftse', label: 'FTSE Shariah Global Equity Index Series (Yasaar)', tradition: 'Islamic' },
    { id: 'shariah_msci', label: 'MSCI Islamic Index Series methodology', tradition: 'Islamic' },
    { id: 'christian_bri', label: 'Biblically responsible investing', tradition: 'Christian' },
    { id: 'catholic_usccb', label: 'USCCB Socially Responsible Investment Guidelines', tradition: 'Catholic' },
    { id: 'jewish_halakhic', label: 'Halakhic investing', tradition: 'Jewish' },
    { id: 'lds_mormon', label: 'Word of Wisdom (D&C 89)', tradition: 'LDS' },
    { id: 'service_consensus', label: 'faithscreen consensus score', tradition: 'Proprietary' },
  ].map((f) => Object.freeze(f as FrameworkInfo)),
);

const FRAMEWORK_ID_SET: ReadonlySet<string> = new Set(FRAMEWORK_IDS);

/** True when `id` is one of the 10 canonical framework ids. */
export function isFrameworkId(id: string): id is FrameworkId {
  return FRAMEWORK_ID_SET.has(id);
}

/** True for the five `shariah_*` methodologies. */
export function isShariahFrameworkId(id: string): id is ShariahFrameworkId {
  return id.startsWith('shariah_') && FRAMEWORK_ID_SET.has(id);
}
