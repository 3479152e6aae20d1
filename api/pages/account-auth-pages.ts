import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../access/password-hashing.ts';
import { csrfField, h, messageBox, type AccountPage, type PageUser } from './account-layout.ts';

/** The sign-in, set-password, change-password and account pages (docs/access.md, "Account users and sign-in"). */

interface FieldSpec {
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  autocomplete: string;
  value?: string;
  hint?: string;
  invalid?: boolean;
}

function field(spec: FieldSpec): string {
  const id = `field-${spec.name}`;
  const hint = spec.hint ? `<span class="hint" id="${id}-hint">${h(spec.hint)}</span>` : '';
  const described = [spec.hint ? `${id}-hint` : '', spec.invalid ? 'form-error' : ''].filter(Boolean).join(' ');
  const extra = spec.type === 'password' && spec.autocomplete === 'new-password' ? ` minlength="${PASSWORD_MIN_LENGTH}"` : '';
  return `<div><label for="${id}">${h(spec.label)}${hint}</label>
<input id="${id}" name="${h(spec.name)}" type="${spec.type}" autocomplete="${h(spec.autocomplete)}" required${extra} maxlength="${PASSWORD_MAX_LENGTH}"${
    spec.value !== undefined ? ` value="${h(spec.value)}"` : ''
  }${described ? ` aria-describedby="${described}"` : ''}${spec.invalid ? ' aria-invalid="true"' : ''}></div>`;
}

const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters; a few unrelated words work well.`;

export function signInPage(options: { csrfToken: string; next: string; email?: string; error?: string; info?: string }): AccountPage {
  return {
    title: 'Sign in',
    main:
      `<h1>Sign in to your account</h1>
${options.error ? messageBox('error', options.error) : ''}${options.info ? messageBox('info', options.info) : ''}
<form class="stacked" method="post" action="/account/sign-in" id="sign-in-form">
${csrfField(options.csrfToken)}<input type="hidden" name="next" value="${h(options.next)}">
` +
      field({
        name: 'email',
        label: 'Email',
        type: 'email',
        autocomplete: 'username',
        invalid: Boolean(options.error),
        ...(options.email !== undefined ? { value: options.email } : {}),
      }) +
      `
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', invalid: Boolean(options.error) })}
<div><button type="submit">Sign in</button></div>
</form>
<p>No password yet, or forgotten it? Ask your faithscreen operator for a set-password link.</p>`,
  };
}

export function setPasswordPage(options: { csrfToken: string; token: string; email: string; error?: string }): AccountPage {
  return {
    title: 'Set your password',
    main: `<h1>Set your password</h1>
<p class="who">For <strong id="invite-email">${h(options.email)}</strong>. This link works once.</p>
${options.error ? messageBox('error', options.error) : ''}
<form class="stacked" method="post" action="/account/set-password" id="set-password-form">
${csrfField(options.csrfToken)}<input type="hidden" name="token" value="${h(options.token)}">
<input type="hidden" name="email" autocomplete="username" value="${h(options.email)}">
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: NEW_PASSWORD_HINT, invalid: Boolean(options.error) })}
${field({ name: 'confirm', label: 'New password again', type: 'password', autocomplete: 'new-password', invalid: Boolean(options.error) })}
<div><button type="submit">Set password and sign in</button></div>
</form>`,
  };
}

/**
 * Reads the link's token from the URL fragment (never sent to the server, so no proxy log keeps
 * it) into the form, hides the field and drops the fragment from the address bar and history.
 */
const LINK_CODE_SCRIPT =
  '(function(){var m=/^#token=([A-Za-z0-9_-]{43})$/.exec(location.hash);if(!m)return;' +
  "document.getElementById('field-token').value=m[1];document.getElementById('link-code').hidden=true;" +
  "history.replaceState(null,'',location.pathname);})();";

const LINK_CODE_HINT = 'The part of your link after #token= (filled in for you when JavaScript runs).';

/**
 * The set-password page a link opens (`/account/set-password#token=…`): the token travels in the
 * form body. Without JavaScript the user pastes the link's code (the part after `#token=`).
 */
export function setPasswordLinkPage(options: { csrfToken: string }): AccountPage {
  return {
    title: 'Set your password',
    main: `<h1>Set your password</h1>
<p class="who">Choose the password you will sign in with. Your link works once.</p>
<form class="stacked" method="post" action="/account/set-password" id="set-password-form">
${csrfField(options.csrfToken)}<div id="link-code"><label for="field-token">Link code<span class="hint" id="field-token-hint">${LINK_CODE_HINT}</span></label>
<input id="field-token" name="token" type="text" autocomplete="off" required maxlength="43" aria-describedby="field-token-hint"></div>
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: NEW_PASSWORD_HINT })}
${field({ name: 'confirm', label: 'New password again', type: 'password', autocomplete: 'new-password' })}
<div><button type="submit">Set password and sign in</button></div>
</form>`,
    script: LINK_CODE_SCRIPT,
  };
}

export function invalidLinkPage(): AccountPage {
  return {
    title: 'Link not valid',
    main: `<h1>This link is not valid</h1>
${messageBox('error', 'The set-password link has expired or was already used. Each link works once, for a limited time.')}
<p>Ask your faithscreen operator for a new link. If you already set your password, <a href="/account/sign-in">sign in</a>.</p>`,
  };
}

export function changePasswordPage(options: { user: PageUser; error?: string; info?: string }): AccountPage {
  return {
    title: 'Change password',
    user: options.user,
    main: `<h1>Change your password</h1>
${options.error ? messageBox('error', options.error) : ''}${options.info ? messageBox('info', options.info) : ''}
<form class="stacked" method="post" action="/account/password" id="password-form">
${csrfField(options.user.csrfToken)}<input type="hidden" name="email" autocomplete="username" value="${h(options.user.email)}">
${field({ name: 'current', label: 'Current password', type: 'password', autocomplete: 'current-password', invalid: Boolean(options.error) })}
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: NEW_PASSWORD_HINT, invalid: Boolean(options.error) })}
${field({ name: 'confirm', label: 'New password again', type: 'password', autocomplete: 'new-password', invalid: Boolean(options.error) })}
<div><button type="submit">Change password</button></div>
</form>
<p>Changing your password signs you out everywhere else.</p>`,
  };
}

export function accountHomePage(options: { user: PageUser; info?: string }): AccountPage {
  return {
    title: 'Account',
    user: options.user,
    main:
      `<h1>Your account</h1>
${options.info ? messageBox('info', options.info) : ''}
<p class="who">Signed in as <strong id="signed-in-email">${h(options.user.email)}</strong> · account ` +
      `<strong id="signed-in-account">${h(options.user.accountId)}</strong></p>
<ul>
<li><a href="/account/api-keys">API keys</a>: your keys and their usage</li>
<li><a href="/account/upgrade">Upgrade</a>: tiers and their limits</li>
<li><a href="/account/password">Change password</a></li>
</ul>`,
  };
}

/** Too many failed sign-ins; the same words whether or not the email belongs to a user. */
export function rateLimitedMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed sign-ins from this address or for this email. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** Another sign-in from the same address is being checked: one at a time per address. */
export const IN_FLIGHT = 'Another sign-in from this address is still being checked. Wait a moment and try again.';

/** The answer to a second sign-in from an address whose first is still being checked (no form: it costs next to nothing). */
export function signInBusyPage(): AccountPage {
  return {
    title: 'Sign-in in progress',
    main: `<h1>Sign-in in progress</h1>
${messageBox('error', IN_FLIGHT)}
<p><a href="/account/sign-in">Back to sign-in</a></p>`,
  };
}

/** The password checks are all taken (a flood, or a very busy moment): nothing was counted. */
export function busyMessage(retryAfterSeconds: number): string {
  return `Sign-in is very busy right now; nothing was checked. Try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`;
}

export const WRONG_CREDENTIALS = 'That email and password do not match an account. Check both and try again.';
