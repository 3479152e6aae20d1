import { InvalidArgumentError, type Command } from 'commander';
import { AccountUserStore } from '../../access/account-user-store.ts';
import { AccountAuth } from '../../access/account-users.ts';
import { getConfig } from '../../platform/config.ts';
import { printJson } from '../operator-command.ts';
import { withAccess } from './access.ts';

function parseHours(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 24 * 30)
    throw new InvalidArgumentError(`expected a whole number of hours from 1 to 720, got "${value}"`);
  return Number(value);
}

/** Runs one action on the account users of the service state; a refused action exits 1 with its reason. */
function withUsers(action: (auth: AccountAuth) => Promise<void>): Promise<void> {
  return withAccess((access) => action(new AccountAuth({ store: new AccountUserStore(access.store.db), accessStore: access.store })));
}

/** `users …`: operators invite the people who sign in to an account's pages (docs/access.md, "Account users and sign-in"). */
export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('people who sign in to an account at /account (DATA_DIR/service.db)');
  users
    .command('invite')
    .description("create a user (or renew an existing user's link) and print a one-time set-password link")
    .requiredOption('--account <name>', 'the account the user signs in to')
    .requiredOption('--email <address>', "the user's email (their sign-in name)")
    .option('--expires-in-hours <hours>', 'how long the link works (default 72)', parseHours)
    .option('--json', 'print one JSON object instead of the link and a note')
    .action((options: { account: string; email: string; expiresInHours?: number; json?: boolean }) =>
      withUsers(async (auth) => {
        const invitation = await auth.invite(
          options.account,
          options.email,
          ...(options.expiresInHours !== undefined ? [options.expiresInHours * 3_600_000] : []),
        );
        const { token, ...rest } = invitation;
        // The token rides in the fragment: browsers never send it, so no proxy or access log keeps it.
        const link = `${getConfig().baseUrl}/account/set-password#token=${token}`;
        if (options.json) process.stdout.write(`${JSON.stringify({ ...rest, link })}\n`);
        else
          process.stdout.write(
            `${link}\n\nSend this link to ${invitation.email} yourself: it sets the password of ` +
              `${invitation.new_user ? 'a new' : 'an existing'} user of account '${invitation.account}', works once, ` +
              `and expires ${invitation.expires_at}. It is not shown again.\n`,
          );
      }),
    );
  users
    .command('remove')
    .description('remove a user: their sign-ins end and unused links stop working (the account and its keys stay)')
    .requiredOption('--email <address>', "the user's email")
    .action((options: { email: string }) =>
      withUsers(async (auth) => {
        const removed = await auth.remove(options.email);
        process.stdout.write(`removed ${removed.email} (${removed.user_id}) from account '${removed.account}'\n`);
      }),
    );
  users
    .command('list')
    .description('list users (never their passwords) and whether each has set one')
    .option('--account <name>', 'only this account')
    .action((options: { account?: string }) =>
      withUsers(async (auth) => {
        printJson(await auth.users(options.account));
      }),
    );
}
