import { describe, expect, it } from 'vitest';
import { segmentsToMerge } from '../../warehouse/api-reads/api-reads-history-merge-plan.ts';

/**
 * The history index's merge policy (docs/serving.md, "as_of from the history index"): which
 * segments merge, and what a stream of publishes costs in rows rewritten.
 */

/** Feeds `publishes` new segments of `rows` each after a first segment of `first`, merging as the index does; counts rows written by merges. */
function stream(first: number, publishes: number, rows: number, maxSegments: number) {
  const segments = [first];
  let rewritten = 0;
  let most = segments.length;
  for (let i = 0; i < publishes; i += 1) {
    // The index merges first, then builds the new files (one segment a publish).
    for (let picked = segmentsToMerge(segments, maxSegments); picked.length > 0; picked = segmentsToMerge(segments, maxSegments)) {
      const merged = picked.reduce((n, at) => n + segments[at]!, 0);
      rewritten += merged;
      for (const at of [...picked].sort((a, b) => b - a)) segments.splice(at, 1);
      segments.push(merged);
    }
    segments.push(rows);
    most = Math.max(most, segments.length);
  }
  return { segments, rewritten, most, added: publishes * rows };
}

describe('which history index segments merge', () => {
  it('when there are no more segments than allowed, then none', () => {
    expect(segmentsToMerge([], 4)).toEqual([]);
    expect(segmentsToMerge([5, 1, 1, 1], 4)).toEqual([]);
  });

  it('when there are too many, then the smallest merge, and a much larger segment is left alone', () => {
    // Indices of the merged segments: the four small ones, not the 1,000-row one.
    expect(segmentsToMerge([1_000, 10, 12, 9, 11], 4).sort()).toEqual([1, 2, 3, 4]);
    // At least two, even when the second is much larger than the first.
    expect(segmentsToMerge([10_000, 1, 500], 2).sort()).toEqual([1, 2]);
    // A larger segment joins while it is at most twice what is merged so far.
    expect(segmentsToMerge([3, 3, 12, 100], 3).sort()).toEqual([0, 1, 2]);
    expect(segmentsToMerge([3, 3, 13, 100], 3).sort()).toEqual([0, 1]);
  });

  it('when a backfill adds a small segment at a time, then each row is rewritten a few times and the segments stay within the bound', () => {
    // A month-end backfill of the whole universe: about 22 million rows in chunks of ~28,000 (one chunk's files a build).
    const run = stream(370_000, 790, 28_000, 12);
    expect(run.most).toBeLessThanOrEqual(13);
    expect(run.segments.length).toBeLessThanOrEqual(13);
    // 3.98 rows written by merges for each row added (the policy it replaced: 25.5).
    expect(run.rewritten / run.added).toBeLessThan(5);
    // The policy it replaced (4 segments, all but the largest merged each time) rewrote far more.
    const previous = previousPolicyRewrites(370_000, 790, 28_000);
    expect(previous / run.added).toBeGreaterThan(10);
  });

  it('when a nightly publish adds one segment to a long history, then the history is not rewritten', () => {
    const run = stream(22_000_000, 30, 124_000, 12);
    expect(Math.max(...run.segments)).toBe(22_000_000);
    expect(run.rewritten).toBeLessThan(30 * 124_000 * 3);
  });
});

/** Rows the previous policy rewrote for the same stream: past 4 segments, all but the largest merged, or all once they held half as many rows as it. */
function previousPolicyRewrites(first: number, publishes: number, rows: number): number {
  let segments = [first];
  let rewritten = 0;
  for (let i = 0; i < publishes; i += 1) {
    if (segments.length + 1 > 4) {
      const [largest, ...rest] = [...segments].sort((a, b) => b - a);
      const restRows = rest.reduce((n, r) => n + r, 0);
      const merged = restRows * 2 < largest! ? rest : segments;
      const total = merged.reduce((n, r) => n + r, 0) + rows;
      rewritten += total;
      segments = merged === rest ? [largest!, total] : [total];
    } else segments.push(rows);
  }
  return rewritten;
}
