/**
 * Golden tables: one JSON file per framework in ./golden, each case a patch over the base
 * company (fixtures.ts), the hand computation in `note`, and the expected verdict and checks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { screenCompany, type CheckResult, type FrameworkId, type VerdictStatus } from '../../engine/index.ts';
import { applyPatch, inputWith, type Patch } from './fixtures.ts';

interface CheckExpectation {
  result?: CheckResult;
  within_limit?: boolean;
  value?: number;
  absent?: boolean;
}

interface GoldenCase {
  name: string;
  note: string;
  input: Patch;
  expect: {
    status: VerdictStatus;
    methodology_version?: string;
    score?: number | null;
    purification_per_share?: number | null;
    checks?: Record<string, CheckExpectation>;
  };
}

interface GoldenFile {
  framework: FrameworkId;
  /** Patch applied to the base company before each case's own patch. */
  base?: Patch;
  cases: GoldenCase[];
}

const dir = new URL('./golden/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

function load(name: string): GoldenFile {
  const parsed: unknown = JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
  const file = parsed as GoldenFile;
  if (typeof file.framework !== 'string' || !Array.isArray(file.cases)) throw new Error(`malformed golden file ${name}`);
  return file;
}

it('has a golden table for every framework', () => {
  expect(files.map((f) => load(f).framework).sort()).toEqual(
    [
      'catholic_usccb',
      'christian_bri',
      'jewish_halakhic',
      'lds_mormon',
      'service_consensus',
      'shariah_aaoifi',
      'shariah_djim',
      'shariah_ftse',
      'shariah_msci',
      'shariah_sp',
    ].sort(),
  );
});

for (const name of files) {
  const golden = load(name);
  describe(`golden table ${golden.framework}`, () => {
    it('has at least 15 hand-computed cases, each with a note', () => {
      expect(golden.cases.length).toBeGreaterThanOrEqual(15);
      for (const c of golden.cases) expect(c.note.length, c.name).toBeGreaterThan(10);
    });

    for (const c of golden.cases) {
      it(`when ${c.name}, then ${c.expect.status}`, () => {
        const result = screenCompany(applyPatch(inputWith(golden.base ?? {}), c.input)).frameworks[golden.framework]!;
        expect(result.status, c.note).toBe(c.expect.status);
        if (c.expect.methodology_version !== undefined) expect(result.methodology_version).toBe(c.expect.methodology_version);
        if (c.expect.score !== undefined) {
          if (c.expect.score === null) expect(result.score).toBeNull();
          else expect(result.score).toBeCloseTo(c.expect.score, 1);
        }
        if (c.expect.purification_per_share !== undefined) {
          const p = result.purification?.per_share ?? null;
          if (c.expect.purification_per_share === null) expect(p).toBeNull();
          else expect(p).toBeCloseTo(c.expect.purification_per_share, 9);
        }
        for (const [code, want] of Object.entries(c.expect.checks ?? {})) {
          const reason = result.reasons.find((r) => r.code === code);
          if (want.absent === true) {
            expect(reason, `${code} should be absent`).toBeUndefined();
            continue;
          }
          expect(reason, `${code} missing; got ${result.reasons.map((r) => r.code).join(', ')}`).toBeDefined();
          if (want.result !== undefined) expect(reason!.result, code).toBe(want.result);
          if (want.within_limit !== undefined) expect(reason!.within_limit, code).toBe(want.within_limit);
          if (want.value !== undefined) expect(reason!.value, code).toBeCloseTo(want.value, 12);
        }
      });
    }
  });
}
