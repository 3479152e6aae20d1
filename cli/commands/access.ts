import { InvalidArgumentError, type Command } from 'commander';
import {
  AdminError,
  accountView,
  createAccount,
  createKey,
  lapseAccount,
  listKeys,
  setAccountTier,
  reinstateAccount,
  revokeKey,
  type KeyView,
} from '../../access/administration.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import { accessOptionsOf } from '../../platform/service-state.ts';
import { TIERS } from '../../access/tiers.ts';
import { getConfig } from '../../platform/config.ts';
import { WebhookStore } from '../../webhooks/webhook-store.ts';
import { printJson, refuseOrThrow, withServiceDb } from '../operator-command.ts';

/** commander parser for comma-separated lists (validated by the administration rules). */
function parseList(value: string): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new InvalidArgumentError(`expected a comma-separated list, got "${value}"`);
  return items;
}

function parseUnits(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number of units, got "${value}"`);
  return Number(value);
}

/** `screen=1,attest=5` → { screen: 1, attest: 5 }. */
function parseWeights(value: string): Record<string, number> {
  return Object.fromEntries(
    parseList(value).map((pair) => {
      const match = /^([a-z/]+)=(\d+)$/.exec(pair);
      if (!match) throw new InvalidArgumentError(`expected tag=units pairs such as screen=1,attest=5; got "${pair}"`);
      return [match[1]!, Number(match[2])];
    }),
  );
}

/** Runs one administrative action on the service state (DATABASE_URL or DATA_DIR/service.db); a refused action exits 1 with its reason. */
export async function withAccess(action: (access: AccessSetup) => Promise<unknown>): Promise<void> {
  const access = await openAccess(accessOptionsOf(getConfig()));
  try {
    await action(access);
  } catch (error) {
    refuseOrThrow(error, [AdminError]);
  } finally {
    await access.close();
  }
}

function keyLine(key: KeyView): string {
  const daily = key.usage.find((u) => u.window === 'daily');
  const state = key.revoked_at ? `revoked ${key.revoked_at.slice(0, 10)}` : 'active';
  return `${key.key_id}  ${key.account} (${key.tier})  ${state}  daily ${daily?.used ?? 0}/${daily?.limit ?? 0}`;
}

/** `accounts …` and `keys …`: operators' administration of API access. */
export function registerAccessCommands(program: Command): void {
  const accounts = program.command('accounts').description('customer accounts and their tiers (DATA_DIR/service.db)');
  accounts
    .command('create <name>')
    .description('create an account')
    .requiredOption('--tier <tier>', `one of ${TIERS.join(', ')}`)
    .action((name: string, options: { tier: string }) =>
      withAccess(async ({ store }) => printJson(accountView(await createAccount(store, name, options.tier)))),
    );
  accounts
    .command('set-tier <name>')
    .description('move the account to another tier (upgrade or downgrade); its keys follow within a second')
    .requiredOption('--tier <tier>', `one of ${TIERS.join(', ')}`)
    .action((name: string, options: { tier: string }) =>
      withAccess(async ({ store }) => printJson(accountView(await setAccountTier(store, name, options.tier)))),
    );
  accounts
    .command('lapse <name>')
    .description("mark the account's subscription lapsed: its keys get 403 with an upgrade_url")
    .action((name: string) => withAccess(async ({ store }) => printJson(accountView(await lapseAccount(store, name)))));
  accounts
    .command('reinstate <name>')
    .description('end a lapse: the account keys work again')
    .action((name: string) => withAccess(async ({ store }) => printJson(accountView(await reinstateAccount(store, name)))));
  accounts
    .command('list')
    .description('list accounts')
    .action(() => withAccess(async ({ store }) => printJson((await store.accounts()).map(accountView))));

  const keys = program.command('keys').description('API keys: create (the secret is shown once), list, revoke');
  keys
    .command('create')
    .description('create an API key for an account and print it once')
    .requiredOption('--account <name>', 'owning account')
    .option('--markets <list>', 'allowed markets, e.g. us,gb (default: all)', parseList)
    .option('--endpoints <list>', 'allowed endpoint tags, e.g. screen,attest (default: all)', parseList)
    .option(
      '--frameworks <list>',
      'allowed framework ids; service_consensus only when listed (default: all but service_consensus)',
      parseList,
    )
    .option('--daily-limit <units>', 'units per rolling 24 hours (required for partner keys; default: the tier limit)', parseUnits)
    .option('--monthly-quota <units>', 'partner keys: units per rolling 30 days', parseUnits)
    .option('--weights <pairs>', 'partner keys: units per item by endpoint tag, e.g. screen=1,attest=5', parseWeights)
    .option('--json', 'print one JSON object (default output is JSON too; the flag is accepted for scripts)')
    .action(
      (options: {
        account: string;
        markets?: string[];
        endpoints?: string[];
        frameworks?: string[];
        dailyLimit?: number;
        monthlyQuota?: number;
        weights?: Record<string, number>;
      }) =>
        withAccess(async ({ store, hashSecret }) => {
          const created = await createKey(store, hashSecret, {
            account: options.account,
            ...(options.markets ? { markets: options.markets } : {}),
            ...(options.endpoints ? { endpoints: options.endpoints } : {}),
            ...(options.frameworks ? { frameworks: options.frameworks } : {}),
            ...(options.dailyLimit !== undefined ? { dailyLimit: options.dailyLimit } : {}),
            ...(options.monthlyQuota !== undefined ? { monthlyQuota: options.monthlyQuota } : {}),
            ...(options.weights ? { weights: options.weights } : {}),
          });
          process.stdout.write(`${JSON.stringify(created)}\n`);
          if (process.stderr.isTTY) process.stderr.write('store this key now: it is not shown again and cannot be recovered\n');
        }),
    );
  keys
    .command('list')
    .description('list keys (never their secrets) with current usage')
    .option('--account <name>', 'only this account')
    .option('--json', 'print JSON instead of one line per key')
    .action((options: { account?: string; json?: boolean }) =>
      withAccess(async ({ store }) => {
        const views = await listKeys(store, options.account);
        if (options.json) printJson(views);
        else process.stdout.write(views.map((view) => `${keyLine(view)}\n`).join('') || 'no keys\n');
      }),
    );
  keys
    .command('revoke <key_id>')
    .description('revoke a key for good: its next request is a 401, and the webhook subscriptions it created deliver nothing more')
    .option('--end-webhooks', 'also delete the webhook subscriptions the key created (without it they stay listed, silent)')
    .action((keyId: string, options: { endWebhooks?: boolean }) =>
      withAccess(async ({ store }) => {
        const view = await revokeKey(store, keyId);
        await withServiceDb(async (db) => {
          const webhooks = new WebhookStore(db);
          const at = new Date().toISOString();
          if (options.endWebhooks)
            return printJson({ ...view, webhook_subscriptions: { ended: await webhooks.deleteSubscriptionsCreatedBy(keyId, at) } });
          const silent = (await webhooks.subscriptionsCreatedBy(keyId)).map((s) => s.subscriptionId);
          const note = 'these deliver nothing while their key is revoked; delete them with faithscreen webhooks delete';
          printJson({ ...view, webhook_subscriptions: { silent, ...(silent.length > 0 ? { note } : {}) } });
        });
      }),
    );
}
