import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFaithscreen } from '../api/support/attest-fixture.ts';
import { makeTempDir } from '../support/temp-dir.ts';

describe('faithscreen signing-keys and attest commands on a DATA_DIR', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-attest-cli-');
  });
  afterAll(() => temp?.cleanup());

  it('when keys are rotated and listed, then only ids, statuses and dates are printed, and each secret is a file of its own', async () => {
    const first = await runFaithscreen(temp.dir, ['signing-keys', 'rotate']);
    const second = await runFaithscreen(temp.dir, ['signing-keys', 'rotate']);
    expect([first.code, second.code]).toEqual([0, 0]);
    const listed = await runFaithscreen(temp.dir, ['signing-keys', 'list']);
    const keys = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(keys.map((k) => k.status)).toEqual(['retired', 'active']);
    expect(Object.keys(keys[0]!).sort()).toEqual(['created_at', 'distrust_note', 'distrusted_at', 'key_id', 'retired_at', 'status']);
    const files = readdirSync(path.join(temp.dir, 'secrets', 'signing-keys')).sort();
    expect(files).toEqual(keys.map((k) => `${String(k.key_id)}.key`).sort());
  });

  it('when the key id is malformed or unknown, then distrust exits 1 saying what ids look like or which exist', async () => {
    const malformed = await runFaithscreen(temp.dir, ['signing-keys', 'distrust', 'not-a-key']);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/not a signing key id; ids look like sk_/);
    const unknown = await runFaithscreen(temp.dir, ['signing-keys', 'distrust', 'sk_20000101_00000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no signing key 'sk_20000101_00000000'; known keys: sk_/);
  });

  it('when a revocation names a malformed or unknown certificate, or has no note, then it exits non-zero with the reason', async () => {
    const malformed = await runFaithscreen(temp.dir, ['attest', 'revoke', 'abc', '--note', 'x']);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/not a certificate id/);
    const unknown = await runFaithscreen(temp.dir, ['attest', 'revoke', `fsc_${'d'.repeat(40)}`, '--note', 'bad data']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no certificate 'fsc_d+'/);
    const noNote = await runFaithscreen(temp.dir, ['attest', 'revoke', `fsc_${'d'.repeat(40)}`]);
    expect(noNote.code).not.toBe(0);
    expect(noNote.stderr).toMatch(/--note/);
  });
});
