/** Everything derived once per screen and shared by all ten frameworks. */
import { ExposureIndex } from './exposures.ts';
import type { Fundamentals, ScreeningInput } from './inputs.ts';
import { assessInputQuality, type InputQuality } from './input-quality.ts';
import { computeRatios, type RatioSet } from './ratios.ts';

export interface ScreenContext {
  input: ScreeningInput;
  quality: InputQuality;
  ratios: RatioSet;
  exposures: ExposureIndex;
  /** The filing the figures came from, when it is usable. */
  filingRef: string | undefined;
  /** Fundamentals when usable (present, dated, fresh), else null. */
  fundamentals: Fundamentals | null;
}

/** Derive the shared per-screen context from a validated input. */
export function buildScreenContext(input: ScreeningInput): ScreenContext {
  const quality = assessInputQuality(input);
  const usable = quality.fundamentals === 'ok' ? input.fundamentals : null;
  return {
    input,
    quality,
    ratios: computeRatios(input, quality),
    exposures: ExposureIndex.of(input.exposures, input.screeningDate, quality.exposureCutoff, {
      listing: input.listing,
      reviewedOn: input.activitiesReviewedOn ?? null,
      revenueAccounted: input.revenueAccounted ?? null,
    }),
    filingRef: usable?.sourceRef,
    fundamentals: usable,
  };
}
