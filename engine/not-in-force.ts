/** The result for a date before a framework's first rule table took effect. */
import type { FrameworkId } from './frameworks.ts';
import type { FrameworkResult } from './result-types.ts';

/** `insufficient_data`: no methodology was in force on `date` (`YYYY-MM-DD`). */
export function notInForce(id: FrameworkId, date: string): FrameworkResult {
  return {
    id,
    status: 'insufficient_data',
    score: null,
    methodology_version: 'none',
    methodology_effective_from: '',
    reasons: [
      {
        code: `${id}.methodology_not_in_force`,
        result: 'insufficient_data',
        message: `No version of this methodology was in force on ${date}.`,
      },
    ],
    purification: null,
  };
}
