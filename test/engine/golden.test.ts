/**
 * Golden tables: one JSON file per framework in ./golden (plus topic tables named
 * `<framework>.<topic>.json`), each case a patch over the base company (fixtures.ts), the hand
 * computation in `note`, and the expected verdict and checks.
 * ./held-out holds further hand-computed cases, written apart from the golden tables (other
 * figures, other dates), checked the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  screenCompany,
  type CheckResult,
  type FrameworkId,
  type Doubt,
  type FrameworkResult,
  type VerdictStatus,
} from '../../engine/index.ts';
import { applyPatch, inputWith, type Patch } from './fixtures.ts';

interface CheckExpectation {
  result?: CheckResult;
  within_limit?: boolean;
  value?: number;
  margin?: number;
  near_limit?: boolean;
  doubt?: Doubt | null;
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

/** Round so that hand-computed decimals compare with computed doubles. */
function round(x: number | null | undefined, digits: number): number | null | undefined {
  // + 0 turns -0 into 0: a rounded margin of zero has no sign.
  return typeof x === 'number' ? Number(x.toFixed(digits)) + 0 : x;
}

type Expectation = GoldenCase['expect'];

/** The parts of a result that a case's expectation mentions, in the expectation's shape. */
function project(result: FrameworkResult, want: Expectation): Expectation {
  const out: Expectation = { status: result.status };
  if (want.methodology_version !== undefined) out.methodology_version = result.methodology_version;
  if (want.score !== undefined) out.score = round(result.score, 1) ?? null;
  if (want.purification_per_share !== undefined) out.purification_per_share = round(result.purification?.per_share ?? null, 9) ?? null;
  if (want.checks !== undefined) {
    out.checks = {};
    for (const [code, check] of Object.entries(want.checks)) {
      const reason = result.reasons.find((r) => r.code === code);
      const got: CheckExpectation = {};
      if (reason === undefined) got.absent = true;
      else {
        if (check.result !== undefined) got.result = reason.result;
        if (check.within_limit !== undefined) got.within_limit = reason.within_limit;
        if (check.value !== undefined) got.value = round(reason.value, 12) ?? undefined;
        if (check.margin !== undefined) got.margin = round(reason.margin, 12) ?? undefined;
        if (check.near_limit !== undefined) got.near_limit = reason.near_limit;
        if (check.doubt !== undefined) got.doubt = reason.doubt ?? null;
        if (check.absent !== undefined) got.absent = false;
      }
      out.checks[code] = got;
    }
  }
  return out;
}

/** The expectation with its numbers rounded like `project` rounds. */
function normalise(want: Expectation): Expectation {
  const out: Expectation = { ...want };
  if (typeof want.score === 'number') out.score = round(want.score, 1) ?? null;
  if (typeof want.purification_per_share === 'number') out.purification_per_share = round(want.purification_per_share, 9) ?? null;
  if (want.checks !== undefined) {
    out.checks = Object.fromEntries(
      Object.entries(want.checks).map(([code, c]) => {
        const out: CheckExpectation = { ...c };
        if (c.value !== undefined) out.value = round(c.value, 12) ?? undefined;
        if (c.margin !== undefined) out.margin = round(c.margin, 12) ?? undefined;
        return [code, out];
      }),
    );
  }
  return out;
}

function filesIn(dir: URL): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

function load(dir: URL, name: string): GoldenFile {
  const parsed: unknown = JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
  const file = parsed as GoldenFile;
  if (typeof file.framework !== 'string' || !Array.isArray(file.cases)) throw new Error(`malformed golden file ${name}`);
  return file;
}

const goldenDir = new URL('./golden/', import.meta.url);
const heldOutDir = new URL('./held-out/', import.meta.url);
const ALL_FRAMEWORKS = [
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
].sort();

it('has a golden table for every framework', () => {
  expect([...new Set(filesIn(goldenDir).map((f) => load(goldenDir, f).framework))].sort()).toEqual(ALL_FRAMEWORKS);
});

it('has held-out cases for every framework', () => {
  expect(
    filesIn(heldOutDir)
      .map((f) => load(heldOutDir, f).framework)
      .sort(),
  ).toEqual(ALL_FRAMEWORKS);
});

function runCases(kind: string, dir: URL, minimum: number): void {
  // A framework's cases count over its main table and its topic tables (`<framework>.<topic>.json`).
  const casesPerFramework = new Map<string, number>();
  for (const name of filesIn(dir)) {
    const framework = load(dir, name).framework;
    casesPerFramework.set(framework, (casesPerFramework.get(framework) ?? 0) + load(dir, name).cases.length);
  }
  for (const name of filesIn(dir)) {
    const golden = load(dir, name);
    describe(`${kind} ${name.replace(/\.json$/, '')}`, () => {
      it(`belongs to a framework with at least ${minimum} hand-computed cases, each with a note`, () => {
        expect(name.startsWith(`${golden.framework}.`), 'file named after its framework').toBe(true);
        expect(casesPerFramework.get(golden.framework)).toBeGreaterThanOrEqual(minimum);
        for (const c of golden.cases) expect(c.note.length, c.name).toBeGreaterThan(10);
      });

      for (const c of golden.cases) {
        it(`when ${c.name}, then ${c.expect.status}`, () => {
          const result = screenCompany(applyPatch(inputWith(golden.base ?? {}), c.input)).frameworks[golden.framework]!;
          expect(project(result, c.expect), c.note).toEqual(normalise(c.expect));
        });
      }
    });
  }
}

runCases('golden table', goldenDir, 15);
runCases('held-out cases', heldOutDir, 3);
