/**
 * Runs `task` once for each index 0..count-1 with at most `width` tasks at a time: each lane
 * takes the next index when its previous task has finished, so indexes start in order. Pure
 * (no timers, no I/O): workflow code uses it as well as activities and the API.
 */
export async function inLanes(count: number, width: number, task: (index: number, lane: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async (laneNo: number): Promise<void> => {
    while (next < count) {
      const index = next;
      next += 1;
      await task(index, laneNo);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, count)) }, (_, laneNo) => lane(laneNo)));
}
