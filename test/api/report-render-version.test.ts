import { describe, expect, it } from 'vitest';
import { RENDER_VERSION } from '../../serving/default-report.ts';
import { STORED_FORMAT } from '../../serving/serving-codec.ts';

describe('pre-rendered report version', () => {
  it('names the format reports are stored in, so an API of an earlier release takes them as stale instead of misreading them', () => {
    expect(RENDER_VERSION.split(' ')).toEqual([
      expect.stringContaining('shariah_aaoifi'),
      expect.stringMatching(/^[0-9a-f]{16}$/),
      STORED_FORMAT,
    ]);
  });
});
