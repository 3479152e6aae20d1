import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ResultGrouper } from '../../serving/result-grouper.ts';
import { decompressResult } from '../../serving/serving-codec.ts';
import type { ServingRow } from '../../serving/serving-types.ts';
import { servingRow } from '../support/serving-rows.ts';

function row(ticker: string, snapshotDate: string, screenedAt = '2026-01-01T00:00:00.000'): ServingRow {
  return servingRow(ticker, snapshotDate, screenedAt);
}

/** 2 kB of hex that deflate cannot shrink alone, the same on each day of a ticker (as most of a real result is). */
const bodyOf = (ticker: string) =>
  Array.from({ length: 32 }, (_, i) => createHash('sha256').update(`${ticker}${i}`).digest('hex')).join('');
const json = (r: ServingRow) => Buffer.from(JSON.stringify({ ticker: r.ticker, day: r.snapshotDate, body: bodyOf(r.ticker) }));

function groupedResults(rows: ServingRow[]) {
  const grouper = new ResultGrouper();
  for (const r of rows) grouper.add(r, json(r));
  const batch = grouper.finish();
  const blockOf = (s: ServingRow) =>
    batch.blocks.find((b) => b.ticker === s.ticker && b.screenedAt === s.screenedAt && b.year === s.snapshotDate.slice(0, 4))?.data ?? null;
  return { batch, results: batch.snapshots.map((s) => decompressResult(s.result, blockOf(s)).toString('utf8')) };
}

describe('result grouper', () => {
  it('puts a ticker’s consecutive days of one screen and year in one block, and every row reads its own result back', () => {
    const rows = ['2020-01-31', '2020-02-29', '2020-03-31', '2021-01-31'].map((d) => row('AAA', d));
    const { batch, results } = groupedResults(rows);
    expect(batch.blocks).toHaveLength(1);
    expect(batch.snapshots.map((s) => s.snapshotDate)).toEqual(rows.map((r) => r.snapshotDate));
    expect(results).toEqual(rows.map((r) => json(r).toString('utf8')));
    // Three results in one block take about what one takes alone (2021's), not three times it.
    expect(batch.blocks[0]!.data.length).toBeLessThan(batch.snapshots[3]!.result.length * 1.5);
  });

  it('compresses alone what does not continue a group: another screen, a day out of order, a ticker seen again', () => {
    const rows = [
      row('AAA', '2020-01-31'),
      row('AAA', '2020-02-29', '2026-02-01T00:00:00.000'),
      row('BBB', '2020-02-29'),
      row('BBB', '2020-01-31'),
      row('CCC', '2020-01-31'),
      row('CCC', '2020-02-29'),
      row('DDD', '2020-01-31'),
      row('CCC', '2020-03-31'),
      row('CCC', '2020-04-30'),
    ];
    const { batch, results } = groupedResults(rows);
    // Only CCC's first two days share a block; its later two (after DDD) are rows alone.
    expect(batch.blocks.map((b) => b.ticker)).toEqual(['CCC']);
    expect(results).toEqual(batch.snapshots.map((s) => json(s).toString('utf8')));
    expect(batch.snapshots).toHaveLength(rows.length);
  });
});
