import { describe, expect, it } from 'vitest';
import { inLanes } from '../../common/lanes.ts';

/** A task that resolves after its turn, recording when it started and how many ran at once. */
function recorder() {
  const started: number[] = [];
  let running = 0;
  let peak = 0;
  const task = async (index: number): Promise<void> => {
    started.push(index);
    running += 1;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setTimeout(resolve, (index % 3) + 1));
    running -= 1;
  };
  return { started, task, peak: () => peak };
}

describe('inLanes', () => {
  it('runs every index once, in starting order, never more than the width at once', async () => {
    const r = recorder();
    await inLanes(10, 3, r.task);
    expect(r.started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(r.peak()).toBe(3);
  });

  it('opens no more lanes than there are tasks, and at least one', async () => {
    const r = recorder();
    await inLanes(2, 8, r.task);
    expect(r.peak()).toBe(2);
    const lanes: number[] = [];
    await inLanes(0, 0, async (_, lane) => void lanes.push(lane));
    expect(lanes).toEqual([]);
  });

  it('tells each task its lane, so a lane can own a resource such as a connection', async () => {
    const byLane = new Map<number, number[]>();
    await inLanes(6, 2, async (index, lane) => {
      byLane.set(lane, [...(byLane.get(lane) ?? []), index]);
      await new Promise((resolve) => setTimeout(resolve, 1));
    });
    expect([...byLane.keys()].sort()).toEqual([0, 1]);
    expect([...byLane.values()].flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('rejects with the first failure', async () => {
    await expect(
      inLanes(4, 2, async (index) => {
        if (index === 2) throw new Error('chunk 2 failed');
      }),
    ).rejects.toThrow('chunk 2 failed');
  });
});
