import { PassThrough } from 'node:stream';
import { createApp } from '../../../api/app.ts';
import { csrfKeyFrom } from '../../../api/account/csrf.ts';
import { createMetrics } from '../../../api/metrics.ts';
import { AccessStore } from '../../../access/access-store.ts';
import { createAccount } from '../../../access/administration.ts';
import { AccountUserStore } from '../../../access/account-user-store.ts';
import { AccountAuth, type AccountAuthOptions } from '../../../access/account-users.ts';
import { loadKeyHashSecret } from '../../../access/key-hashing.ts';
import { signInKeyFrom } from '../../../access/sign-in-limits.ts';
import { createLogger } from '../../../platform/logger.ts';
import { openServiceDb, type ServiceDb } from '../../../service-state/db.ts';
import { listen } from '../../support/http.ts';
import { testServiceState } from '../../support/service-state.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

export interface AccountServer {
  url: string;
  dataDir: string;
  db: ServiceDb;
  auth: AccountAuth;
  /** Everything the API logged, as text (debug level). */
  logs(): string;
  close(): Promise<void>;
}

/**
 * The real API app with only its account pages, over a real service state of its own (libsql
 * or PostgreSQL, see test/support/service-state.ts) and the production scrypt parameters.
 * Accounts `acme` (pro) and `globex` (team) exist.
 */
export async function serveAccountPages(
  options: { trustProxy?: boolean; auth?: Partial<AccountAuthOptions> } = {},
): Promise<AccountServer> {
  const temp = await makeTempDir('faithscreen-account-pages-');
  const db = await openServiceDb(await testServiceState(temp.dir));
  const accessStore = new AccessStore(db);
  await createAccount(accessStore, 'acme', 'pro');
  await createAccount(accessStore, 'globex', 'team');
  const hashSecret = loadKeyHashSecret(temp.dir);
  const auth = new AccountAuth({ store: new AccountUserStore(db), accessStore, signInKey: signInKeyFrom(hashSecret), ...options.auth });
  await auth.prepare();
  const sink = new PassThrough();
  let logText = '';
  sink.on('data', (chunk: Buffer) => (logText += chunk.toString('utf8')));
  const app = createApp({
    logger: createLogger('debug', sink),
    metrics: createMetrics(),
    readiness: {},
    account: { auth, csrfKey: csrfKeyFrom(hashSecret), trustProxy: options.trustProxy ?? false },
  });
  const server = await listen(app);
  return {
    url: server.url,
    dataDir: temp.dir,
    db,
    auth,
    logs: () => logText,
    close: async () => {
      await server.close();
      await db.close();
      await temp.cleanup();
    },
  };
}

/** A browser's cookie jar for /account, over plain fetch (redirects are not followed, so each step is seen). */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  async get(path: string): Promise<Response> {
    return this.keep(
      await fetch(`${this.base}${path}`, { redirect: 'manual', headers: { ...this.extraHeaders, cookie: this.cookieHeader() } }),
    );
  }

  async post(path: string, form: Record<string, string>): Promise<Response> {
    return this.keep(
      await fetch(`${this.base}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...this.extraHeaders, cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      }),
    );
  }

  /** The `_csrf` value of the first form on a page. */
  static csrfOf(html: string): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(html);
    if (!match) throw new Error('the page has no _csrf field');
    return match[1]!;
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    return response;
  }
}
