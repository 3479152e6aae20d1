import { createHmac } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import canonicalizeModule from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE, testServiceState } from '../support/service-state.ts';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import { openServiceDb } from '../../service-state/db.ts';
import { BASE_URL, serveAttestApi, type ServedAttestApi } from './support/attest-fixture.ts';
import { daysAgo, TODAY } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string;

const CERTIFICATE_FIELDS = [
  'cert_id',
  'payload_version',
  'ticker',
  'market',
  'standard',
  'verdict',
  'score',
  'purification_per_share',
  'as_of',
  'minted_at',
  'snapshot_ref',
  'key_id',
  'sig',
  'company_name',
  'issuer_type',
  'verify_url',
  'cert_url',
];
const SIGNED = CERTIFICATE_FIELDS.filter((f) => !['sig', 'verify_url', 'cert_url'].includes(f));

describe('POST /api/attest/{market}/{ticker} over a real lake and service.db (no access control)', () => {
  let api: ServedAttestApi;
  const logLines: string[] = [];
  const mint = async (pathAndQuery: string) => {
    const response = await fetch(`${api.url}/api/attest/${pathAndQuery}`, { method: 'POST' });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    api = await serveAttestApi({ logLines });
  }, 180_000);
  afterAll(() => api?.close());

  it('when the caller screens then mints, then the certificate carries every spec field, signed over the documented fields', async () => {
    const ticker = api.t.fresh[0]!;
    const screen = (await (await fetch(`${api.url}/api/screen/us/${ticker}?framework=shariah_aaoifi`)).json()) as Json;
    const { status, headers, body } = await mint(`us/${ticker.toLowerCase()}?standard=shariah_aaoifi`);

    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(body).sort()).toEqual([...CERTIFICATE_FIELDS].sort());
    expect(body.cert_id).toMatch(/^fsc_[0-9a-f]{40}$/);
    expect(body).toMatchObject({ payload_version: 1, ticker, market: 'us', standard: 'shariah_aaoifi', issuer_type: 'api_key' });
    expect(body.verdict).toBe(screen.report.shariah_aaoifi.status);
    expect(body.score).toBe(screen.report.shariah_aaoifi.score);
    expect(body.purification_per_share).toBe(screen.report.shariah_aaoifi.purification.per_share);
    expect(body.company_name).toBe(screen.report.company_name);
    expect(body.snapshot_ref).toEqual({ source: 'nightly', day: TODAY });
    expect(body.as_of).toBe(`${screen.report.financial_data.provenance.screened_at}Z`);
    expect(Date.parse(body.minted_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.verify_url).toBe(`${BASE_URL}/api/attest/verify/${body.cert_id}`);
    expect(body.cert_url).toBe(`${BASE_URL}/attest/${body.cert_id}`);
    expect(body.key_id).toMatch(/^sk_\d{8}_[0-9a-f]{8}$/);

    // Re-verify as docs/attestations.md says: RFC 8785 over exactly the signed fields, HMAC-SHA-256 with the key's secret.
    const secretFile = path.join(api.dataDir, 'secrets', 'signing-keys', `${body.key_id}.key`);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = Buffer.from(readFileSync(secretFile, 'utf8').trim(), 'base64');
    const payload = canonicalize(Object.fromEntries(SIGNED.map((f) => [f, body[f]])));
    expect(createHmac('sha256', secret).update(payload).digest('hex')).toBe(body.sig);
    expect(JSON.stringify(body)).not.toContain(secret.toString('base64'));
    expect(JSON.stringify(body)).not.toContain(secret.toString('hex'));
  });

  it('when a certificate was answered with 200, then another connection to the service state reads it, pinned to the exact snapshot', async () => {
    const { body } = await mint(`us/${api.t.fresh[1]}?standard=christian_bri`);
    const other = await openServiceDb(await testServiceState(api.dataDir));
    try {
      const row = (await other.get<Json>(
        'SELECT verdict, snapshot_day, snapshot_screened_at, snapshot_source, snapshot_pin, key_id FROM certificates WHERE cert_id = ?',
        [body.cert_id],
      ))!;
      expect(row).toMatchObject({
        verdict: body.verdict,
        snapshot_day: TODAY,
        snapshot_screened_at: `${TODAY}T02:00:00.000`,
        snapshot_source: 'nightly',
        key_id: body.key_id,
      });
      expect(JSON.parse(row.snapshot_pin).statuses.christian_bri).toBe(body.verdict);
      // The signing secret is in its file only: no stored row holds it (and on libsql neither
      // service.db nor its WAL holds its bytes anywhere).
      const secret = Buffer.from(
        readFileSync(path.join(api.dataDir, 'secrets', 'signing-keys', `${body.key_id}.key`), 'utf8').trim(),
        'base64',
      );
      const rows = JSON.stringify([await other.all('SELECT * FROM certificates'), await other.all('SELECT * FROM signing_keys')]);
      expect(rows).toContain(body.key_id); // the rows are really there
      expect(rows).not.toContain(secret.toString('base64'));
      expect(rows).not.toContain(secret.toString('hex'));
      const files = TEST_ENGINE === 'libsql' ? ['service.db', 'service.db-wal'] : [];
      for (const file of files) {
        const bytes = readFileSync(path.join(api.dataDir, file));
        expect(bytes.includes(secret)).toBe(false);
        expect(bytes.includes(Buffer.from(secret.toString('base64')))).toBe(false);
      }
    } finally {
      await other.close();
    }
  });

  it('when the standard has no purification rule, then purification_per_share is 0 and score null is allowed', async () => {
    const { status, body } = await mint(`us/${api.t.fresh[2]}?standard=christian_bri`);
    expect(status).toBe(200);
    expect(body.purification_per_share).toBe(0);
    expect(body.score === null || typeof body.score === 'number').toBe(true);
  });

  it('when the current screening is exactly 30 days old, then it can still be attested', async () => {
    const { status, body } = await mint(`us/${api.t.expired}?standard=shariah_djim`);
    expect(status).toBe(200);
    expect(body.snapshot_ref.day).toBe(daysAgo(30));
  });

  it('when the current screening is older than 30 days, then 409 names its date and how to re-screen', async () => {
    const { status, body } = await mint(`us/${api.t.withHistory}?standard=shariah_djim`);
    expect(status).toBe(409);
    expect(body.detail).toMatch(/dated 2020-12-31, \d+ days ago/);
    expect(body.detail).toMatch(/force_refresh=true/);
  });

  it('when the verdict is insufficient_data, then 422 says it cannot be attested', async () => {
    // Any fresh listing whose current verdict under some framework is insufficient_data.
    const undecided = api.t.fresh
      .map((ticker) => ({ ticker, statuses: api.reads.current('us', ticker)?.statuses ?? {} }))
      .flatMap(({ ticker, statuses }) =>
        Object.entries(statuses)
          .filter(([, s]) => s === 'insufficient_data')
          .map(([id]) => ({ ticker, id })),
      )[0];
    expect(undecided, 'the fixture has an insufficient_data verdict').toBeDefined();
    const { status, body } = await mint(`us/${undecided!.ticker}?standard=${undecided!.id}`);
    expect(status).toBe(422);
    expect(body.detail).toMatch(/insufficient_data, which cannot be attested/);
  });

  it('when the ticker is listed but never screened, then 404 and no screen is triggered (the refresher would have answered 503)', async () => {
    const { status, body } = await mint(`us/${api.t.unscreened}?standard=shariah_aaoifi`);
    expect(status).toBe(404);
    expect(body.detail).toMatch(/no current screening.*minting never screens/);
    expect(api.reads.current('us', api.t.unscreened)).toBeUndefined();
  });

  it('when the ticker is not listed, then 404 says so', async () => {
    const { status, body } = await mint('us/ZZZZ9?standard=shariah_aaoifi');
    expect(status).toBe(404);
    expect(body.detail).toMatch(/'ZZZZ9' is not listed in market 'us'/);
  });

  it('when the standard is unknown, then 400 lists the 10 ids', async () => {
    const { status, body } = await mint(`us/${api.t.fresh[0]}?standard=shariah_unknown`);
    expect(status).toBe(400);
    expect(body.detail).toContain("unknown framework id 'shariah_unknown'");
    for (const id of FRAMEWORK_IDS) expect(body.detail).toContain(id);
  });

  it('when the standard is missing, then 400 says it is required and lists the 10 ids', async () => {
    const { status, body } = await mint(`us/${api.t.fresh[0]}`);
    expect(status).toBe(400);
    expect(body.detail).toMatch(/query.standard: required/);
    expect(body.detail).toContain('service_consensus');
  });

  it('when standard is repeated, then 422 (a malformed query shape)', async () => {
    const { status, body } = await mint(`us/${api.t.fresh[0]}?standard=shariah_sp&standard=shariah_djim`);
    expect(status).toBe(422);
    expect(body.detail).toMatch(/query.standard/);
  });

  it('when the market or the ticker is invalid, then 400 names the valid values', async () => {
    const market = await mint(`xx/${api.t.fresh[0]}?standard=shariah_sp`);
    expect(market.status).toBe(400);
    expect(market.body.detail).toMatch(/unknown market 'xx'; valid markets: .*us/);
    const ticker = await mint('us/$$$?standard=shariah_sp');
    expect(ticker.status).toBe(400);
    expect(ticker.body.detail).toMatch(/invalid ticker/);
  });

  it('when /openapi.json is read, then a real validator accepts it and it documents the attest paths, signed fields, precedence and errors', async () => {
    const body = (await (await fetch(`${api.url}/openapi.json`)).json()) as Json;
    const result = await new Validator().validate(body);
    expect(result.errors ?? []).toEqual([]);
    const mintOp = body.paths['/api/attest/{market}/{ticker}'].post;
    expect(mintOp['x-unit-cost']).toBe('5');
    expect(Object.keys(mintOp.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '422', '429']);
    const verifyOp = body.paths['/api/attest/verify/{cert_id}'].get;
    expect(Object.keys(verifyOp.responses).sort()).toEqual(['200', '404', '429']);
    expect(verifyOp.description).toContain(
      'revoked > unknown_signing_key > invalid_signature > valid_snapshot_missing > valid_snapshot_diverged > valid',
    );
    expect(body.paths['/attest/{cert_id}'].get.responses['200'].content['text/html']).toBeDefined();
    expect(body.components.schemas.Attestation.description).toContain(SIGNED.join(', '));
  });

  it('when certificates are minted and verified, then the log names them but never holds a signing secret', async () => {
    const { body } = await mint(`us/${api.t.fresh[3]}?standard=shariah_msci`);
    await fetch(`${api.url}/api/attest/verify/${body.cert_id}`);
    const log = logLines.join('');
    expect(log).toContain(`"cert_id":"${body.cert_id}"`);
    const secret = Buffer.from(
      readFileSync(path.join(api.dataDir, 'secrets', 'signing-keys', `${body.key_id}.key`), 'utf8').trim(),
      'base64',
    );
    expect(log).not.toContain(secret.toString('base64'));
    expect(log).not.toContain(secret.toString('hex'));
  });

  it('when minted with GET, then 405 names POST', async () => {
    const response = await fetch(`${api.url}/api/attest/us/${api.t.fresh[0]}?standard=shariah_sp`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('POST');
  });
});
