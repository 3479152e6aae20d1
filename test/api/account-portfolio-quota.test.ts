import type { Server } from 'node:http';
import escapeHtml from 'escape-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMeterId } from '../../access/access-store.ts';
import { AccountUserStore } from '../../access/account-user-store.ts';
import { AccountAuth } from '../../access/account-users.ts';
import { createOwnKey } from '../../access/account-keys.ts';
import { createAccount, lapseAccount } from '../../access/administration.ts';
import { QuotaMeter } from '../../access/meter.ts';
import type { AccessSetup } from '../../access/open-access.ts';
import { signInKeyFrom } from '../../access/sign-in-limits.ts';
import { DAY_MS, type Tier } from '../../access/tiers.ts';
import { csrfKeyFrom } from '../../api/account/csrf.ts';
import { openTestAccess } from '../support/access.ts';
import { freePort } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { Browser } from './support/account-server.ts';
import { buildLake, createTestApi, type FixtureTickers, type TestApi } from './support/lake-fixture.ts';

const PASSWORD = 'correct horse battery staple';

/** The real meter; `hold()` stops the next charge at a gate, so a test knows a screen is in flight. */
class GatedMeter extends QuotaMeter {
  private held: { reached: () => void; gate: Promise<void> } | undefined;

  hold(): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    this.held = { reached, gate };
    return { reached: arrived, release };
  }

  override async charge(...args: Parameters<QuotaMeter['charge']>): ReturnType<QuotaMeter['charge']> {
    const held = this.held;
    this.held = undefined;
    if (held) {
      held.reached();
      await held.gate;
    }
    return super.charge(...args);
  }
}

describe("/account/portfolio spends the account's allowance as POST /api/portfolio would (real HTTP, real service state)", () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let pageMeter: GatedMeter;
  let auth: AccountAuth;
  let api: TestApi;
  let server: Server;
  let url: string;
  let t: FixtureTickers;
  let accounts = 0;

  /** A new account on `tier` with one signed-in user, as a fetch-based browser. */
  async function signedInAccount(tier: Tier = 'pro'): Promise<{ name: string; client: Browser }> {
    const name = `page-quota-${++accounts}`;
    await createAccount(access.store, name, tier);
    const email = `user@${name}.test`;
    const set = await auth.setPasswordWithInvite((await auth.invite(name, email)).token, PASSWORD);
    if (!set.ok) throw new Error(set.message);
    const client = new Browser(url);
    const form = await (await client.get('/account/sign-in')).text();
    const answer = await client.post('/account/sign-in', { _csrf: Browser.csrfOf(form), next: '/account', email, password: PASSWORD });
    if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}`);
    return { name, client };
  }

  async function postCsv(client: Browser, csv: string): Promise<{ status: number; html: string }> {
    const form = await (await client.get('/account/portfolio')).text();
    const answer = await client.post('/account/portfolio', { _csrf: Browser.csrfOf(form), csv, market: 'us' });
    return { status: answer.status, html: await answer.text() };
  }

  /** `POST /api/portfolio` of the CSV with a new key of `account`. */
  async function apiPost(account: string, csv: string): Promise<Response> {
    const created = await createOwnKey(access.store, access.hashSecret, (await access.store.account(account))!, new Date());
    if (!created.ok) throw new Error(created.reason);
    return fetch(`${url}/api/portfolio`, { method: 'POST', headers: { 'content-type': 'text/csv', 'X-API-Key': created.key }, body: csv });
  }

  /** Units committed to the account's daily window once both meters gave back their spare units. */
  async function used(account: string): Promise<number> {
    await pageMeter.returnSpare();
    await access.meter.returnSpare();
    return Number((await access.store.window(accountMeterId(account), 'daily'))?.used ?? 0);
  }

  const valueCsv = () => `Symbol,Description,Market Value\n${t.fresh[0]},ONE,3000\n${t.fresh[1]},TWO,1000\n${t.fund.ticker},FUND,4000\n`;

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-portfolio-quota-');
    t = await buildLake(temp.dir);
    access = await openTestAccess(temp.dir);
    pageMeter = new GatedMeter(access.store);
    auth = new AccountAuth({
      store: new AccountUserStore(access.store.db),
      accessStore: access.store,
      signInKey: signInKeyFrom(access.hashSecret),
    });
    await auth.prepare();
    api = await createTestApi(temp.dir, undefined, access.middleware, {
      account: { auth, csrfKey: csrfKeyFrom(access.hashSecret), trustProxy: false },
      accountPages: { store: access.store, hashSecret: access.hashSecret, contact: undefined, meter: pageMeter },
    });
    const port = await freePort();
    server = api.app.listen(port, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${port}`;
  }, 180_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await api?.reads.close();
    await api?.forensic.close();
    await api?.purification.close();
    await pageMeter?.close();
    await access?.close();
    await temp?.cleanup();
  });

  it('when a CSV is screened on the page, then the account is charged what the API charges for it, and the usage page charts it', async () => {
    const csv = valueCsv();
    const page = await signedInAccount();
    const screened = await postCsv(page.client, csv);
    expect(screened.status).toBe(200);
    expect(screened.html).toContain('id="result"');
    const other = await signedInAccount();
    expect((await apiPost(other.name, csv)).status).toBe(200);
    expect(await used(page.name)).toBe(await used(other.name));
    expect(await used(page.name)).toBe(1 + 1 + 5); // two stock lines and a fund line

    const keys = await (await page.client.get('/account/api-keys')).text();
    expect(keys).toContain('id="account-pages"');
    expect(keys).toContain(`data-day="${new Date().toISOString().slice(0, 10)}" data-units="7"`);
  });

  it("when the account's allowance is spent, then the page answers the API's 429 with when it resets, and screens and charges nothing", async () => {
    const csv = valueCsv();
    const { name, client } = await signedInAccount();
    const startedAtMs = Date.now();
    await access.store.atomically((quota) => quota.putWindow(accountMeterId(name), 'daily', { startedAtMs, used: 995 }));
    const refused = await postCsv(client, csv);
    expect(refused.status).toBe(429);
    expect(refused.html).not.toContain('id="result"');
    const viaApi = await apiPost(name, csv);
    expect(viaApi.status).toBe(429);
    const { message } = ((await viaApi.json()) as { detail: { message: string } }).detail;
    expect(message).toContain(
      `the account's daily quota (995 of 1000 units used, resets at ${new Date(startedAtMs + DAY_MS).toISOString()})`,
    );
    expect(refused.html).toContain(escapeHtml(message));
    expect(await used(name)).toBe(995);
    expect(await (await client.get('/account/api-keys')).text()).not.toContain('id="account-pages"');
  });

  it('when a second screen of the account is posted while one runs, then it is a 429 at once and only the first is charged', async () => {
    const csv = valueCsv();
    const { name, client } = await signedInAccount();
    const form = await (await client.get('/account/portfolio')).text();
    const post = () => client.post('/account/portfolio', { _csrf: Browser.csrfOf(form), csv, market: 'us' });
    const { reached, release } = pageMeter.hold();
    const first = post();
    await reached;
    const second = await post();
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    const html = await second.text();
    expect(html).toContain('a portfolio screen of this account is already running; wait for it to finish, then send again');
    expect(html).not.toContain('id="result"');
    release();
    expect((await first).status).toBe(200);
    expect(await used(name)).toBe(7);
  });

  it('when the CSV is refused (404 unknown tickers, 400 weights not adding up, 400 unreadable), then nothing stays charged', async () => {
    const { name, client } = await signedInAccount();
    const unknown = await postCsv(client, `Symbol,Market Value\nNOPE1,3\n${t.fresh[0]},1\nNOPE2,4\n`);
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('2 ticker(s) not listed: us:NOPE1, us:NOPE2');
    const weights = await postCsv(client, `Ticker,Weight\n${t.fresh[2]},60%\n${t.fresh[3]},30%\n`);
    expect(weights.status).toBe(400);
    expect(weights.html).toContain('weights');
    const unreadable = await postCsv(client, 'Name,Colour\nred,blue\n');
    expect(unreadable.status).toBe(400);
    expect(await used(name)).toBe(0);
  });

  it('when the account is free, partner or lapsed, then the page refuses with 403 saying why and screens nothing', async () => {
    const csv = valueCsv();
    const free = await signedInAccount('free');
    const freeAnswer = await postCsv(free.client, csv);
    expect(freeAnswer.status).toBe(403);
    expect(freeAnswer.html).toContain('the free tier has no units to spend');
    const partner = await signedInAccount('partner');
    const partnerAnswer = await postCsv(partner.client, csv);
    expect(partnerAnswer.status).toBe(403);
    expect(partnerAnswer.html).toContain('screen the portfolio with POST /api/portfolio and one of them');
    const lapsed = await signedInAccount('pro');
    await lapseAccount(access.store, lapsed.name, new Date('2026-11-01T00:00:00Z'));
    const lapsedAnswer = await postCsv(lapsed.client, csv);
    expect(lapsedAnswer.status).toBe(403);
    expect(lapsedAnswer.html).toContain('lapsed on 2026-11-01');
    for (const answer of [freeAnswer, partnerAnswer, lapsedAnswer]) expect(answer.html).not.toContain('id="result"');
    for (const { name } of [free, partner, lapsed]) expect(await used(name)).toBe(0);
  });
});
