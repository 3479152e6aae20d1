import { describe, expect, it } from 'vitest';
import type { AccountKeys, KeyUsage } from '../../access/account-keys.ts';
import { chartDays } from '../../access/account-keys.ts';
import type { AccountRecord, KeyRecord } from '../../access/access-store.ts';
import { COPY_KEY_SCRIPT, keysPage, revokePage, type KeysPageModel } from '../../api/pages/account-keys-page.ts';
import { accountPageCsp, renderAccountPage } from '../../api/pages/account-layout.ts';
import { upgradePage, type UpgradePageModel } from '../../api/pages/upgrade-page.ts';
import { renderUsageChart } from '../../api/pages/usage-chart.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');
const USER = { email: 'ana@acme.test', accountId: 'acme', csrfToken: 'csrf-token-123' };

// The whole documents, as the routes send them.
const renderKeysPage = (model: KeysPageModel) => renderAccountPage(keysPage(model));
const renderRevokePage = (keyId: string) => renderAccountPage(revokePage(keyId, USER));
const renderUpgradePage = (model: UpgradePageModel) => renderAccountPage(upgradePage(model));

const ACCOUNT: AccountRecord = { name: 'acme', tier: 'pro', lapsedAt: null, createdAt: '2026-01-01T00:00:00.000Z' };

function key(overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    keyId: 'key_N9CLYEt6InlM',
    account: 'acme',
    secretHash: 'HASH-MUST-NEVER-SHOW',
    allowedMarkets: null,
    allowedEndpoints: null,
    allowedFrameworks: null,
    dailyLimit: null,
    monthlyQuota: null,
    costWeights: null,
    createdAt: '2026-11-01T08:30:00.000Z',
    revokedAt: null,
    ...overrides,
  };
}

function usage(record: KeyRecord, perDay: Record<string, number> = {}): KeyUsage {
  return {
    key: record,
    windows:
      record.revokedAt === null
        ? [{ window: 'daily', limit: 1000, used: 42, remaining: 958, resets_at: '2026-11-22T09:00:00.000Z', exhausted: false }]
        : [],
    lastUsedAt: '2026-11-21T09:59:00.000Z',
    days: chartDays(NOW).map((day) => ({ day, units: perDay[day] ?? 0 })),
  };
}

function model(view: Partial<AccountKeys> = {}, extra: Partial<KeysPageModel> = {}): KeysPageModel {
  return {
    view: { account: ACCOUNT, keys: [usage(key())], pages: { lastUsedAt: null, days: [] }, ...view },
    user: USER,
    contact: 'sales@faithscreen.test',
    ...extra,
  };
}

describe('renderUsageChart', () => {
  it('draws one bar per day scaled to the busiest day, and says the same in words and in a table', () => {
    const days = chartDays(NOW).map((day, i) => ({ day, units: i === 29 ? 40 : i === 0 ? 10 : 0 }));
    const svg = renderUsageChart('c1', days);
    expect(svg.match(/<rect /g)).toHaveLength(30);
    expect(svg).toContain('data-day="2026-11-21" data-units="40"');
    expect(svg).toMatch(/y="0" width="8" height="48" data-day="2026-11-21"/);
    expect(svg).toMatch(/y="36" width="8" height="12" data-day="2026-10-23"/);
    expect(svg).toContain('50 in total, most on 2026-11-21 (40)');
    expect(svg).toContain('role="img"');
    expect(svg).toContain('<td>2026-10-23</td><td class="num">10</td>');
  });

  it('when nothing was used, then no bar has height and the summary says none', () => {
    const svg = renderUsageChart(
      'c2',
      chartDays(NOW).map((day) => ({ day, units: 0 })),
    );
    expect(svg).toContain('0 in total, none used');
    expect(svg).not.toMatch(/height="[1-9]\d*" data-day/);
  });

  it('when one day is tiny next to a huge one, then its bar still shows', () => {
    const days = chartDays(NOW).map((day, i) => ({ day, units: i === 0 ? 1 : i === 1 ? 100_000 : 0 }));
    expect(renderUsageChart('c3', days)).toMatch(/height="1" data-day="2026-10-23"/);
  });
});

describe('renderKeysPage', () => {
  it('shows each key with prefix, id, dates, scopes, usage against its limit, the rule in words and the chart', () => {
    const html = renderKeysPage(model({ keys: [usage(key(), { '2026-11-21': 42 })] }));
    expect(html).toContain('<code>fs_live_N9CLYEt6InlM…</code>');
    expect(html).toContain('data-key-id="key_N9CLYEt6InlM"');
    expect(html).toContain('2026-11-01 08:30 UTC');
    expect(html).toContain('2026-11-21 09:59 UTC');
    expect(html).toContain('42 of 1,000 units used</span>, 958 left; resets 2026-11-22 09:00 UTC');
    expect(html).toContain('resets 24 hours after that first call of the day');
    expect(html).toContain('all markets');
    expect(html).toContain('id="chart-key_N9CLYEt6InlM" data-total="42"');
    expect(html).toContain('href="/account/api-keys/key_N9CLYEt6InlM/revoke"');
    expect(html).toContain('name="_csrf" value="csrf-token-123"');
    expect(html).not.toContain('HASH-MUST-NEVER-SHOW');
    expect(html).not.toContain('<script>');
  });

  it('when a key was just created, then its secret is shown once with a copy button that needs script, which the page then carries', () => {
    const secret = `fs_live_N9CLYEt6InlM${'s'.repeat(43)}`;
    const html = renderKeysPage(model({}, { created: { key: secret, keyId: 'key_N9CLYEt6InlM' } }));
    expect(html).toContain(`value="${secret}"`);
    expect(html).toContain('shown only this once');
    expect(html).toMatch(/<button type="button" data-copy="new-key-value" hidden>Copy<\/button>/);
    expect(html).toContain('<script>');
    // Without the creation, the same page never carries it.
    expect(renderKeysPage(model())).not.toContain(secret);
  });

  it('when the account is free, then it says API access starts at Pro and offers no create form', () => {
    const html = renderKeysPage(model({ account: { ...ACCOUNT, tier: 'free' }, keys: [] }));
    expect(html).toContain('API access starts at Pro');
    expect(html).toContain('href="/account/upgrade"');
    expect(html).not.toContain('id="create-key"');
    expect(html).toContain('id="no-keys"');
  });

  it('when the account is a partner, then scopes are read-only, both windows show, and new keys come from the operator', () => {
    const partnerKey = key({ allowedMarkets: ['us', 'gb'], allowedEndpoints: ['screen'], dailyLimit: 500, monthlyQuota: 9000 });
    const partnerUsage: KeyUsage = {
      ...usage(partnerKey),
      windows: [
        { window: 'daily', limit: 500, used: 5, remaining: 495, resets_at: '2026-11-22T09:00:00.000Z', exhausted: false },
        { window: 'monthly', limit: 9000, used: 80, remaining: 8920, resets_at: '2026-12-14T08:00:00.000Z', exhausted: false },
      ],
    };
    const html = renderKeysPage(model({ account: { ...ACCOUNT, tier: 'partner' }, keys: [partnerUsage] }));
    expect(html).toContain('set by your administrator; read-only');
    expect(html).toContain('<code>us</code>, <code>gb</code>');
    expect(html).toContain('30-day quota');
    expect(html).toContain('80 of 9,000 units used');
    expect(html).not.toContain('id="create-key"');
    expect(html).toContain('href="mailto:sales@faithscreen.test"');
    expect(html).not.toMatch(/<input(?![^>]*type="hidden")[^>]*name="(markets|endpoints|frameworks)/);
  });

  it('when the account lapsed, then it says so and offers no create form', () => {
    const html = renderKeysPage(model({ account: { ...ACCOUNT, lapsedAt: '2026-11-20T00:00:00.000Z' } }));
    expect(html).toContain('lapsed on 2026-11-20');
    expect(html).not.toContain('id="create-key"');
  });

  it('when a key is revoked, then it shows as revoked with no usage rows and no revoke link', () => {
    const revoked = key({ revokedAt: '2026-11-21T09:00:00.000Z' });
    const html = renderKeysPage(model({ keys: [usage(revoked)] }, { revoked: revoked.keyId }));
    expect(html).toContain('data-status="revoked"');
    expect(html).toContain('Revoked</strong> on 2026-11-21 09:00 UTC');
    expect(html).not.toContain('/revoke"');
    expect(html).toContain('id="revoked-notice"');
  });

  it('when a value holds markup, then it is escaped', () => {
    const html = renderKeysPage(
      model({ account: { ...ACCOUNT, name: '<b>x</b>' } }, { user: { ...USER, email: '"><script>alert(1)</script>' } }),
    );
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<script>alert(1)');
  });

  it.each([
    ['too_many_keys', 'already has 5 active keys'],
    ['partner_terms', 'administrators set'],
    ['free_tier', 'API access starts at the Pro tier'],
    ['lapsed', 'has lapsed'],
  ] as const)('when creation was refused (%s), then the page says why', (reason, words) => {
    expect(renderKeysPage(model({}, { refused: reason }))).toContain(words);
  });
});

describe('renderRevokePage', () => {
  it('asks for confirmation with a CSRF-carrying form and a way back', () => {
    const html = renderRevokePage('key_N9CLYEt6InlM');
    expect(html).toContain('action="/account/api-keys/key_N9CLYEt6InlM/revoke"');
    expect(html).toContain('method="post"');
    expect(html).toContain('name="_csrf" value="csrf-token-123"');
    expect(html).toContain('cannot be undone');
    expect(html).toContain('href="/account/api-keys">Cancel');
  });
});

describe('renderUpgradePage', () => {
  it('lists every tier with the limits the access docs state, and how to upgrade', () => {
    const html = renderUpgradePage({ user: undefined, account: undefined, contact: 'https://faithscreen.test/contact' });
    for (const [tier, daily] of [
      ['pro', '1,000'],
      ['team', '10,000'],
      ['enterprise', '100,000'],
      ['partner', 'per contract'],
    ])
      expect(html).toMatch(new RegExp(`data-tier="${tier}"><th scope="row">${tier}</th><td>yes</td><td class="num">${daily}</td>`));
    expect(html).toContain('data-tier="free"><th scope="row">free</th><td>none: no keys</td>');
    expect(html).toContain('<a href="https://faithscreen.test/contact">');
    expect(html).toContain('href="/account/sign-in">Sign in</a> to see which plan');
  });

  it('when signed in, then it marks the account plan and says a free account has no API access', () => {
    const html = renderUpgradePage({ user: USER, account: { ...ACCOUNT, tier: 'free' }, contact: undefined });
    expect(html).toContain('data-tier="free" aria-current="true"');
    expect(html).toContain('Free accounts have no API access');
    expect(html).toContain('the operator of this faithscreen service');
    expect(html).toContain('(<strong>acme</strong>)');
  });
});

describe('the copy script', () => {
  it('is allowed by its hash only on the page that shows a new key', () => {
    const withKey = keysPage(model({}, { created: { key: 'fs_live_x', keyId: 'key_N9CLYEt6InlM' } }));
    expect(withKey.script).toBe(COPY_KEY_SCRIPT);
    expect(accountPageCsp(withKey.script)).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(keysPage(model()).script).toBeUndefined();
  });
});
