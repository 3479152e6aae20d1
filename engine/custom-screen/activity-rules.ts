/** A custom screen's extra excluded activities, checked against what a stored verdict shows (fail closed). */
import { shareWithin } from '../exact.ts';
import { activityLabel, formatPercent } from '../format.ts';
import { involvementList } from '../involvement.ts';
import type { CheckResult, Doubt, Reason, ScreeningResult } from '../result-types.ts';
import type { CustomActivityRule } from './custom-screen-types.ts';
import { storedActivityEvidence } from './stored-activity-evidence.ts';

function limitText(rule: CustomActivityRule): string {
  const share = rule.maxRevenueShare === 0 ? 'no revenue from it' : `at most ${formatPercent(rule.maxRevenueShare)} of revenue`;
  const direct = rule.excludedInvolvements.length > 0 ? `, and no ${involvementList(rule.excludedInvolvements)} at any share` : '';
  return `${share}${direct}`;
}

/** The layer's reason for one excluded activity; `layer` names the screen and version ("custom:halal-plus v2"). */
export function activityRuleReason(result: ScreeningResult, rule: CustomActivityRule, slug: string, layer: string): Reason {
  const name = activityLabel(rule.activity);
  const head = `${layer}: ${name} excluded (${limitText(rule)})`;
  const base = {
    code: `custom.${slug}.activity.${rule.activity}`,
    metric: `activity.${rule.activity}`,
    threshold: rule.maxRevenueShare,
    operator: '<=' as const,
    source: layer,
  };
  const evidence = storedActivityEvidence(result, rule.activity);
  const verdict = (outcome: CheckResult, message: string, extra: Partial<Reason> = {}): Reason => ({
    ...base,
    result: outcome,
    message: `${head}: ${message}`,
    ...extra,
  });
  switch (evidence.kind) {
    case 'unusable':
      return verdict(
        'insufficient_data',
        `the figure cannot be used: ${evidence.why}`,
        evidence.sourceRef ? { filing_ref: evidence.sourceRef } : {},
      );
    case 'unknown':
      return verdict(
        'insufficient_data',
        `the company reports an exposure to it (${evidence.sourceRef ?? 'source not named'}), but this stored verdict does not keep its share.`,
      );
    case 'none_reported':
      if (evidence.level === null)
        return verdict(
          'insufficient_data',
          'none reported, and this stored verdict does not keep what the absence rests on (a backfilled snapshot keeps only the reasons that decided it).',
        );
      if (evidence.level === 'none')
        return verdict(
          'insufficient_data',
          'no business-activity evidence covers the company. Absence of evidence is not evidence of absence.',
          {
            evidence_level: 'none',
          },
        );
      if (evidence.level === 'industry_code')
        return verdict(
          'questionable',
          'none reported, and only the industry code covers the company: it proves the primary business, ' +
            'not the absence of a side business. In doubt until a dated figure settles it.',
          { doubt: 'ambiguous_evidence', evidence_level: 'industry_code' },
        );
      return verdict('pass', `none reported. Evidence: ${evidence.evidence ?? evidence.level}.`, { evidence_level: evidence.level });
    case 'figure': {
      const measured = { value: evidence.share, ...(evidence.sourceRef ? { filing_ref: evidence.sourceRef } : {}) };
      if (evidence.classified) {
        // A classification is a lower bound (half of revenue or more), never a measured share.
        const decided = !shareWithin(evidence.share, '<=', rule.maxRevenueShare);
        return decided
          ? verdict('fail', `the SIC code names it as the primary business: at least half of revenue.`, {
              ...measured,
              within_limit: false,
              evidence_level: 'industry_code',
            })
          : verdict('questionable', 'the SIC code names it as the primary business: at least half of revenue, its share unknown.', {
              ...measured,
              doubt: 'ambiguous_evidence',
              evidence_level: 'industry_code',
            });
      }
      const share = `${formatPercent(evidence.share)} of revenue`;
      if (!shareWithin(evidence.share, '<=', rule.maxRevenueShare)) {
        const doubt: Doubt | undefined = evidence.doubt === 'estimate' || evidence.doubt === 'proxy' ? evidence.doubt : undefined;
        return doubt
          ? verdict('questionable', `${share}, beyond the limit, but the share is an estimate.`, {
              ...measured,
              within_limit: false,
              doubt,
            })
          : verdict('fail', `${share}: beyond the limit.`, { ...measured, within_limit: false });
      }
      if (evidence.share > 0 && rule.excludedInvolvements.length > 0) {
        if (evidence.involvement === null)
          return verdict(
            'questionable',
            `${share} and the company's involvement is not reported; the conservative default applies until it is known.`,
            { ...measured, within_limit: false, doubt: 'ambiguous_evidence' },
          );
        if (rule.excludedInvolvements.includes(evidence.involvement))
          return verdict('fail', `${share} as a ${evidence.involvement}: excluded at any share.`, { ...measured, within_limit: false });
      }
      return verdict('pass', `${share}: within the limit.`, { ...measured, within_limit: true });
    }
  }
}
