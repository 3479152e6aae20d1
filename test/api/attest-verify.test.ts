import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../support/service-state.ts';
import { compactSnapshots } from '../../warehouse/compaction.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { inputOn, publishScreen, runFaithscreen, serveAttestApi, type ServedAttestApi } from './support/attest-fixture.ts';
import { TODAY } from './support/lake-fixture.ts';
import { readSql, sql, sqlDate } from '../../warehouse/sql.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

const RESULT_FIELDS = [
  'cert_id',
  'status',
  'valid',
  'sig_valid',
  'snapshot_check',
  'revoked',
  'revoked_at',
  'revocation_note',
  'checked_at',
  'currency',
  'attestation',
];

/** How someone with write access to each engine switches the append-only trigger off and on again. */
const TRIGGER_OFF = {
  libsql: 'DROP TRIGGER certificates_append_only',
  postgres: 'ALTER TABLE certificates DISABLE TRIGGER certificates_append_only',
};
const TRIGGER_ON = {
  libsql:
    "CREATE TRIGGER certificates_append_only BEFORE UPDATE ON certificates BEGIN SELECT RAISE(ABORT, 'certificates are append-only: UPDATE is refused'); END",
  postgres: 'ALTER TABLE certificates ENABLE TRIGGER certificates_append_only',
};

describe('GET /api/attest/verify/{cert_id}: the documented flow and every status, produced the way it happens', () => {
  let api: ServedAttestApi;
  const mint = async (ticker: string, standard = 'shariah_aaoifi') => {
    const response = await fetch(`${api.url}/api/attest/us/${ticker}?standard=${standard}`, { method: 'POST' });
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  };
  const verify = async (certId: string) => {
    const response = await fetch(`${api.url}/api/attest/verify/${certId}`);
    return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    api = await serveAttestApi({ verifyRateLimit: { limit: 1_000, windowMs: 60_000 } });
  }, 180_000);
  afterAll(() => api?.close());

  it('when a caller screens, mints and anyone verifies without a key, then it is valid and the snapshot matches', async () => {
    const ticker = api.t.fresh[0]!;
    expect((await fetch(`${api.url}/api/screen/us/${ticker}`)).status).toBe(200);
    const certificate = await mint(ticker);
    const { status, headers, body } = await verify(certificate.cert_id);
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect([...headers.keys()].filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
    expect(Object.keys(body)).toEqual(RESULT_FIELDS);
    expect(body).toMatchObject({
      cert_id: certificate.cert_id,
      status: 'valid',
      valid: true,
      sig_valid: true,
      snapshot_check: 'match',
      revoked: false,
      revoked_at: null,
      revocation_note: null,
      currency: 'USD',
    });
    expect(Math.abs(Date.parse(body.checked_at) - Date.now())).toBeLessThan(60_000);
    expect(body.attestation).toEqual(certificate);
  });

  it('when the lake folder is out of reach, then verification still answers from the in-memory index: it opens no lake file', async () => {
    const certificate = await mint(api.t.fresh[10]!);
    const lake = path.join(api.dataDir, 'lake');
    renameSync(lake, `${lake}.away`);
    try {
      const { status, body } = await verify(certificate.cert_id);
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'valid', snapshot_check: 'match' });
    } finally {
      renameSync(`${lake}.away`, lake);
    }
  });

  it('when the ticker is re-screened the same day after a new filing, then the certificate is valid_snapshot_diverged', async () => {
    const ticker = api.t.fresh[1]!;
    const certificate = await mint(ticker);
    const input = await inputOn(api.dataDir, 'us', ticker, TODAY);
    const filing = input.fundamentals!;
    // A restated filing lands during the day: debt five times higher, filed today; the API re-screens the ticker.
    const restated = {
      ...input,
      fundamentals: {
        ...filing,
        totalDebt: (filing.totalDebt ?? 1_000_000) * 5,
        filedOn: TODAY,
        sourceRef: `${filing.sourceRef}-restated`,
      },
    };
    await publishScreen(api, restated, { source: 'refresh', runId: 'refresh-after-filing', screenedAt: `${TODAY}T14:30:00.000` });
    expect(api.reads.current('us', ticker)!.screenedAt).toBe(`${TODAY}T14:30:00.000`);

    const { body } = await verify(certificate.cert_id);
    expect(body).toMatchObject({
      status: 'valid_snapshot_diverged',
      valid: true,
      sig_valid: true,
      snapshot_check: 'diverged',
      revoked: false,
    });
    expect(body.attestation.as_of).toBe(`${TODAY}T02:00:00.000Z`);
  });

  it('when the snapshot a certificate pinned is removed from the lake, then it is valid_snapshot_missing', async () => {
    const ticker = api.t.fresh[2]!;
    // This ticker's noon re-screen is published in its own file; the certificate pins it.
    await publishScreen(api, await inputOn(api.dataDir, 'us', ticker, TODAY), {
      source: 'refresh',
      runId: 'refresh-noon',
      screenedAt: `${TODAY}T12:00:00.000`,
    });
    const certificate = await mint(ticker);
    expect(certificate.snapshot_ref).toEqual({ source: 'refresh', day: TODAY });
    // An operator deletes the file (bad batch); the earlier nightly snapshot of that day remains.
    rmSync(path.join(api.dataDir, 'lake', 'snapshots', 'market=us', `year=${TODAY.slice(0, 4)}`, 'refresh-noon.parquet'));
    // A file removed by hand is not in the serving store's feed: a sync from the lake (as at every start) finds it gone.
    await api.reads.syncFromLake();

    const { body } = await verify(certificate.cert_id);
    expect(body).toMatchObject({ status: 'valid_snapshot_missing', valid: true, sig_valid: true, snapshot_check: 'missing' });
  });

  it('when a stored certificate is altered behind the triggers, then it is invalid_signature and shows what is stored', async () => {
    const certificate = await mint(api.t.fresh[3]!);
    const flipped = certificate.verdict === 'compliant' ? 'non_compliant' : 'compliant';
    // Plain SQL is refused: certificates are append-only and permanent.
    await expect(api.db.run('UPDATE certificates SET verdict = ? WHERE cert_id = ?', [flipped, certificate.cert_id])).rejects.toThrow(
      /append-only/,
    );
    await expect(api.db.run('DELETE FROM certificates WHERE cert_id = ?', [certificate.cert_id])).rejects.toThrow(/permanent/);
    // Someone with write access to the database switches the trigger off and edits the verdict.
    await api.db.exec(TRIGGER_OFF[TEST_ENGINE]);
    try {
      await api.db.run('UPDATE certificates SET verdict = ? WHERE cert_id = ?', [flipped, certificate.cert_id]);
    } finally {
      await api.db.exec(TRIGGER_ON[TEST_ENGINE]);
    }
    const { body } = await verify(certificate.cert_id);
    expect(body).toMatchObject({ status: 'invalid_signature', valid: false, sig_valid: false, revoked: false });
    expect(body.attestation.verdict).toBe(flipped);
    expect(body.attestation.sig).toBe(certificate.sig);
  });

  it('when the operator rotates the signing key, then earlier certificates stay valid and new ones name the new key', async () => {
    const before = await mint(api.t.fresh[4]!);
    const rotated = await runFaithscreen(api.dataDir, ['signing-keys', 'rotate']);
    expect(rotated.code).toBe(0);
    const { created, retired } = JSON.parse(rotated.stdout) as Json;
    expect(retired.key_id).toBe(before.key_id);
    const after = await mint(api.t.fresh[5]!);
    expect(after.key_id).toBe(created.key_id);
    expect((await verify(before.cert_id)).body.status).toBe('valid');
    expect((await verify(after.cert_id)).body.status).toBe('valid');
  });

  it('when a signing key is distrusted after a compromise, then its certificates are unknown_signing_key at once, and new ones are signed with a fresh key', async () => {
    const certificate = await mint(api.t.fresh[6]!);
    const distrusted = await runFaithscreen(api.dataDir, [
      'signing-keys',
      'distrust',
      certificate.key_id,
      '--note',
      'key file found in a public backup',
    ]);
    expect(distrusted.code).toBe(0);
    const out = JSON.parse(distrusted.stdout) as Json;
    expect(out.distrusted).toMatchObject({
      key_id: certificate.key_id,
      status: 'distrusted',
      distrust_note: 'key file found in a public backup',
    });
    expect(out.replacement.key_id).not.toBe(certificate.key_id);

    const { body } = await verify(certificate.cert_id);
    expect(body).toMatchObject({ status: 'unknown_signing_key', valid: false, sig_valid: false, snapshot_check: 'match' });
    const fresh = await mint(api.t.fresh[6]!);
    expect(fresh.key_id).toBe(out.replacement.key_id);
    expect((await verify(fresh.cert_id)).body.status).toBe('valid');
    // The key's record is kept; distrust is final.
    const again = await runFaithscreen(api.dataDir, ['signing-keys', 'distrust', certificate.key_id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already distrusted/);
  });

  it('when the operator revokes a certificate with a note, then it is revoked with the date and note, and never deleted', async () => {
    const certificate = await mint(api.t.fresh[7]!);
    const note = 'fundamentals of this filing were mis-keyed by the data vendor';
    const revoked = await runFaithscreen(api.dataDir, ['attest', 'revoke', certificate.cert_id, '--note', note]);
    expect(revoked.code).toBe(0);
    const { body } = await verify(certificate.cert_id);
    expect(body).toMatchObject({ status: 'revoked', valid: false, sig_valid: true, revoked: true, revocation_note: note });
    expect(Date.parse(body.revoked_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.attestation).toEqual(certificate);
    const twice = await runFaithscreen(api.dataDir, ['attest', 'revoke', certificate.cert_id, '--note', 'again']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already revoked on/);
  });

  it('when a revoked certificate was also signed with a distrusted key, then revoked wins (precedence)', async () => {
    const certificate = await mint(api.t.fresh[8]!);
    expect((await runFaithscreen(api.dataDir, ['attest', 'revoke', certificate.cert_id, '--note', 'withdrawn'])).code).toBe(0);
    expect((await runFaithscreen(api.dataDir, ['signing-keys', 'distrust', certificate.key_id])).code).toBe(0);
    const { body } = await verify(certificate.cert_id);
    expect(body).toMatchObject({ status: 'revoked', valid: false, sig_valid: false, revoked: true });
  });

  it('when the lake is compacted, then pinned snapshots (superseded ones included) are kept and statuses do not change', async () => {
    const valid = await mint(api.t.fresh[9]!);
    const statusBefore = (await verify(valid.cert_id)).body.status;
    const result = await compactSnapshots(api.dataDir, { minFiles: 1, minAgeMs: 0 });
    expect(result.partitions).toBeGreaterThan(0);
    await api.reads.sync();
    expect((await verify(valid.cert_id)).body.status).toBe(statusBefore);
    // The morning snapshot a certificate pinned, superseded by the afternoon re-screen, is still in history beside it.
    const ticker = api.t.fresh[1]!;
    const glob = path.join(api.dataDir, 'lake', 'snapshots', 'market=us', `year=${TODAY.slice(0, 4)}`, '*.parquet');
    const rows = await withDuckDB(':memory:', {}, async (c) =>
      (
        await readSql(
          c,
          sql`SELECT strftime(screened_at, '%H:%M') AS hhmm FROM read_parquet(${glob})
            WHERE ticker = ${ticker} AND snapshot_date = ${sqlDate(TODAY)} ORDER BY hhmm`,
        )
      ).getRowsJS(),
    );
    expect(rows.map(([hhmm]) => hhmm)).toEqual(['02:00', '14:30']);
  });

  it('when the cert_id is unknown or malformed, then 404 with a detail', async () => {
    const unknown = await verify(`fsc_${'a'.repeat(40)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/no certificate 'fsc_a+'/);
    expect(unknown.headers.get('cache-control')).toBe('no-store');
    const malformed = await verify('not-a-certificate');
    expect(malformed.status).toBe(404);
    expect(malformed.body.detail).toMatch(/fsc_ followed by 40 hex digits/);
  });
});
