/** Effective-dated rule tables: the version in force on a date. */

export interface MethodologyVersion {
  /** Version name carried into every result, e.g. `djim-2023-09`. */
  version: string;
  /** First day (`YYYY-MM-DD`) the version applies. */
  effectiveFrom: string;
  /** False when the date is our modelling choice rather than a confirmed publication date. */
  effectiveFromConfirmed: boolean;
  /** Document the rules come from (title, edition, section). */
  source: string;
}

/** Check at load time that versions are sorted by `effectiveFrom` and well formed. */
export function assertChronological(versions: readonly MethodologyVersion[]): void {
  for (let i = 1; i < versions.length; i++) {
    if (versions[i - 1]!.effectiveFrom >= versions[i]!.effectiveFrom) {
      throw new RangeError(`methodology versions out of order at ${versions[i]!.version}`);
    }
  }
}

/** The version in force on `date` (`YYYY-MM-DD`), or null before the first version. */
export function versionInForce<T extends MethodologyVersion>(versions: readonly T[], date: string): T | null {
  for (let i = versions.length - 1; i >= 0; i--) {
    const v = versions[i]!;
    if (v.effectiveFrom <= date) return v;
  }
  return null;
}
