import { AppError } from '../common/app-error.ts';

/** How many `force_refresh` requests one key may have waiting at once, unless the deployment says otherwise. */
export const DEFAULT_REFRESHES_PER_KEY = 4;

/**
 * In-flight forced re-screens per key, in this API process (docs/api.md, "Cache").
 * Each holds a request open for up to the refresh wait and starts a workflow, so one key may
 * not hold many: beyond the cap a forced refresh is refused at once with 429 (and costs nothing).
 */
export class RefreshSlots {
  private readonly taken = new Map<string, number>();

  constructor(private readonly maxPerKey = DEFAULT_REFRESHES_PER_KEY) {}

  /** Takes a slot for `keyId`; call the returned function when the request has answered. */
  take(keyId: string): () => void {
    const held = this.taken.get(keyId) ?? 0;
    if (held >= this.maxPerKey)
      throw new AppError(
        429,
        'too_many_refreshes',
        `too many forced refreshes in flight for this key: at most ${this.maxPerKey} force_refresh requests may wait at once; ` +
          'retry when one has answered, or leave force_refresh off to get the cached report',
        5,
      );
    this.taken.set(keyId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.taken.get(keyId) ?? 1) - 1;
      if (left <= 0) this.taken.delete(keyId);
      else this.taken.set(keyId, left);
    };
  }
}
