/** A custom screen's stricter limits on the base's own checks, compared with the figures the base's stored reasons keep. */
import { shareWithin } from '../exact.ts';
import { formatPercent } from '../format.ts';
import type { Reason } from '../result-types.ts';

/** How a stricter limit's reason opens: the layer, the limit and the base's own (ratios in 0..1). */
export function limitHead(layer: string, metric: string, operator: '<' | '<=', limit: number, baseThreshold: number | undefined): string {
  const baseLimit = baseThreshold === undefined ? 'limit' : formatPercent(baseThreshold);
  return `${layer}: ${metric} ${operator} ${formatPercent(limit)} (stricter than the base's ${baseLimit})`;
}

/**
 * The layer's reason for a stricter `limit` on `metric`, from the base's stored reasons on that
 * metric. The base's own reason stays beside it: both are shown, and the stricter decides.
 */
export function thresholdRuleReason(baseReasons: readonly Reason[], metric: string, limit: number, slug: string, layer: string): Reason {
  const stored = baseReasons.find((r) => r.metric === metric);
  const operator = stored?.operator === '<' ? '<' : '<=';
  const head = limitHead(layer, metric, operator, limit, stored?.threshold);
  const base: Reason = {
    code: `custom.${slug}.${metric}`,
    result: 'insufficient_data',
    message: head,
    metric,
    threshold: limit,
    operator,
    source: layer,
  };
  if (stored === undefined) return { ...base, message: `${head}: the base's stored verdict has no check on this figure.` };
  const ref = stored.filing_ref ? { filing_ref: stored.filing_ref } : {};
  const inputs = stored.inputs ? { inputs: stored.inputs } : {};
  if (stored.value === undefined) {
    // A breach of the base's looser limit proven without a value (a lower bound) breaches the stricter one too.
    if (stored.result === 'fail')
      return { ...base, ...ref, result: 'fail', message: `${head}: the base's check already fails it: ${stored.message}` };
    return { ...base, ...ref, message: `${head}: the figure is not available: ${stored.message}` };
  }
  const within = shareWithin(stored.value, operator, limit);
  const value = { value: stored.value, within_limit: within, margin: limit - stored.value, ...ref, ...inputs };
  if (stored.result === 'insufficient_data' || stored.result === 'info')
    return { ...base, ...value, message: `${head}: the base could not use the figure: ${stored.message}` };
  if (!within) {
    // A breach resting on a proxy or an estimate stays in doubt, as the base's own check would.
    if (stored.doubt !== undefined)
      return {
        ...base,
        ...value,
        result: 'questionable',
        doubt: stored.doubt,
        message: `${head}: ${formatPercent(stored.value)}, beyond the limit, in doubt (${stored.doubt}).`,
      };
    return { ...base, ...value, result: 'fail', message: `${head}: ${formatPercent(stored.value)}, beyond the limit.` };
  }
  if (stored.result === 'questionable')
    return {
      ...base,
      ...value,
      result: 'questionable',
      ...(stored.doubt ? { doubt: stored.doubt } : {}),
      message: `${head}: ${formatPercent(stored.value)}, within the limit, but the base's check is in doubt: ${stored.message}`,
    };
  if (stored.result === 'fail')
    return {
      ...base,
      ...value,
      result: 'fail',
      message: `${head}: ${formatPercent(stored.value)}, but the base's check fails it: ${stored.message}`,
    };
  return { ...base, ...value, result: 'pass', message: `${head}: ${formatPercent(stored.value)}, within the limit.` };
}
