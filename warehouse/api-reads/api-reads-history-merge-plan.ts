/**
 * Which history index segments to merge (docs/serving.md, "as_of from the history index"), given
 * each segment's row count: none while there are at most `maxSegments`; past that, the
 * smallest ones — at least two, and each next larger one only while it is no more than twice
 * what is merged so far. Segments of similar size merge and a segment many times larger than
 * the new ones is left alone, so while a backfill adds a small segment every few seconds each
 * row is rewritten a few times in all, not at every merge. A lookup pays little for many
 * segments: a segment without the ticker costs it one map look-up.
 *
 * Returns the indices (into `rows`) of the segments to merge.
 */
export function segmentsToMerge(rows: readonly number[], maxSegments: number): number[] {
  if (rows.length <= Math.max(1, maxSegments)) return [];
  const bySize = rows.map((n, i) => [n, i] as const).sort((a, b) => a[0] - b[0]);
  let merged = bySize[0]![0] + bySize[1]![0];
  let count = 2;
  while (count < bySize.length && bySize[count]![0] <= 2 * merged) {
    merged += bySize[count]![0];
    count += 1;
  }
  return bySize.slice(0, count).map(([, i]) => i);
}
