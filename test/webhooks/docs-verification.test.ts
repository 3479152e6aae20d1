import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../webhooks/signature.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const run = promisify(execFile);

/** The fenced code block that follows `<!-- verify:NAME -->` in docs/webhooks.md. */
function snippet(doc: string, name: string): string {
  const match = new RegExp(`<!-- verify:${name} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/webhooks.md has no verify:${name} block`);
  return match[1]!;
}

const SECRET = 'whsec_docs-test-secret';
const BODY = JSON.stringify({ id: 'evt_0123456789abcdef01234567', type: 'status.changed', data: { ticker: 'ÄBC', changes: [] } });

/** Cases: a fresh signed body, the same body with one character changed, an old timestamp, the wrong secret. */
function cases() {
  const now = Math.floor(Date.now() / 1000);
  const header = signatureHeader(SECRET, now, BODY);
  return [
    { name: 'signed', secret: SECRET, header, body: BODY, expected: true },
    { name: 'tampered', secret: SECRET, header, body: BODY.replace('ÄBC', 'ÄBD'), expected: false },
    { name: 'old', secret: SECRET, header: signatureHeader(SECRET, now - 3_600, BODY), body: BODY, expected: false },
    { name: 'other secret', secret: 'whsec_other', header, body: BODY, expected: false },
  ];
}

describe('the verification code printed in docs/webhooks.md', () => {
  let doc: string;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    doc = await readFile(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    temp = await makeTempDir('faithscreen-webhook-docs-');
  });
  afterAll(() => temp?.cleanup());

  it('when the Node snippet checks a signed delivery, then it accepts it and refuses a tampered, old or wrongly keyed one', async () => {
    const file = path.join(temp.dir, 'verify.mjs');
    await writeFile(
      file,
      `${snippet(doc, 'node')}\nconst cases = ` +
        `JSON.parse(process.argv[2]);\nconsole.log(JSON.stringify(cases.map((c) => ` +
        `verifyFaithscreenSignature(c.secret, c.header, c.body))));\n`,
    );
    const all = cases();
    const { stdout } = await run(process.execPath, [file, JSON.stringify(all)]);
    expect(JSON.parse(stdout)).toEqual(all.map((c) => c.expected));
  });

  it('when the Python snippet checks a signed delivery, then it accepts it and refuses a tampered, old or wrongly keyed one', async () => {
    const file = path.join(temp.dir, 'verify.py');
    await writeFile(
      file,
      `${snippet(doc, 'python')}\nimport json, sys\ncases = ` +
        `json.loads(sys.argv[1])\nprint(json.dumps([verify_faithscreen_signature(c["secret"], c["header"], ` +
        `c["body"].encode("utf-8")) for c in cases]))\n`,
    );
    const all = cases();
    const { stdout } = await run('python3', [file, JSON.stringify(all)]);
    expect(JSON.parse(stdout)).toEqual(all.map((c) => c.expected));
  });
});
