/**
 * "Directly active in": methodologies that exclude a company taking part in an activity in a
 * given way (making it, running it) whatever its revenue share, beside their revenue-share
 * limits. Each rule names the involvements that count as direct; an exposure whose involvement
 * is not reported takes the conservative default. See docs/data/activities.md ("Involvement")
 * and docs/frameworks/README.md ("Direct involvement").
 */
import { activityLabel, formatPercent } from './format.ts';
import type { ActivityCode, ActivityExposure, Involvement } from './inputs.ts';

/** The involvements a methodology excludes at any revenue share, per activity it names. */
export type DirectInvolvement = Partial<Record<ActivityCode, readonly Involvement[]>>;

/** How an exposure stands against a direct-involvement rule. */
export type InvolvementFinding = 'direct' | 'not_direct' | 'unknown';

/** `direct` when the exposure's involvement is one the rule names, `unknown` when none is reported. */
export function involvementFinding(exposure: ActivityExposure, direct: readonly Involvement[]): InvolvementFinding {
  const involvement = exposure.involvement;
  if (involvement === undefined || involvement === null) return 'unknown';
  return direct.includes(involvement) ? 'direct' : 'not_direct';
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** "producer or distributor" */
export function involvementList(direct: readonly Involvement[]): string {
  return direct.length === 1 ? direct[0]! : `${direct.slice(0, -1).join(', ')} or ${direct[direct.length - 1]}`;
}

/** Reason text for a direct involvement: excluded whatever the share. */
export function directMessage(activity: ActivityCode, exposure: ActivityExposure, ground: string, note = ''): string {
  const share = `${activityLabel(activity)} is ${formatPercent(exposure.revenueShare)} of revenue${note}`;
  return `${ground}: ${share} as ${article(exposure.involvement!)}: directly active, which is excluded at any revenue share.`;
}

/** Reason text for an unreported involvement under a direct-involvement rule: the conservative default. */
export function unknownInvolvementMessage(
  activity: ActivityCode,
  exposure: ActivityExposure,
  direct: readonly Involvement[],
  ground: string,
  note = '',
): string {
  const share = `${activityLabel(activity)} is ${formatPercent(exposure.revenueShare)} of revenue${note}`;
  return (
    `${ground}: ${share} and the company's involvement is not reported; ${article(involvementList(direct))} is directly active, ` +
    'which is excluded at any revenue share, so the conservative default applies: questionable until the involvement is known.'
  );
}

/** Short note for a passing exposure whose involvement is reported and not direct. */
export function notDirectNote(exposure: ActivityExposure): string {
  return exposure.involvement ? ` as ${article(exposure.involvement)} (not directly active)` : '';
}

/**
 * The involvement a company's SIC division implies for the activity its code names: a
 * manufacturer (2000–3999) makes what it sells, a wholesaler (5000–5199) distributes what others
 * make; null for other divisions, where the code does not say (a restaurant may run a bar or sell
 * drinks beside food).
 */
export function involvementOfSic(sic: string | null): Involvement | null {
  if (sic === null || !/^\d{4}$/.test(sic)) return null;
  const code = Number(sic);
  if (code >= 2000 && code <= 3999) return 'producer';
  if (code >= 5000 && code <= 5199) return 'distributor';
  return null;
}
