/**
 * The account pages (behaviour MFA-2, RESET-1, RESET-4): the sign-in code, forgot password, reset password. Plain
 * HTML forms, no JavaScript (lambdas/presentation/html.ts sets a CSP without script). Passwords and
 * codes are never echoed back.
 */
import { accountPaths } from '../../core/account/paths';
import { passkeyLabel, utcMinute } from '../../core/account/passkeys';
import { endpointPaths } from '../../core/paths';
import { html, page, type Html } from '../html';
import type { Passkey, SelfServiceKey } from '../../core/account/ports';

export interface CodeView {
  readonly challengeId: string;
  readonly maskedEmail: string;
  /** Within an authorization: the request id, posted back with the code. */
  readonly requestId?: string;
  readonly error?: string;
  readonly notice?: string;
}

export function codePage(view: CodeView): Html {
  const hidden = html`<input type="hidden" name="challenge_id" value="${view.challengeId}">${
    view.requestId ? html`<input type="hidden" name="request_id" value="${view.requestId}">` : ''
  }`;
  return page(
    'Enter your code',
    html`<p>Enter the 6-digit code we sent to <strong>${view.maskedEmail}</strong>. It works for 10 minutes.</p>
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
${view.notice ? html`<p role="status">${view.notice}</p>` : ''}
<form method="post" action="${accountPaths.signInCode}">
${hidden}
<label for="code">Code</label>
<input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required autofocus>
<button type="submit">Continue</button>
</form>
<form method="post" action="${accountPaths.signInCodeResend}">
${hidden}
<button type="submit">Send a new code</button>
</form>`,
  );
}

export function codeExpiredPage(insideAuthorization: boolean): Html {
  return page(
    'Sign in again',
    html`<p>This code has expired or has been used up.</p>
${
  insideAuthorization
    ? html`<p>Return to the application you came from and sign in again.</p>`
    : html`<p><a href="${endpointPaths.signIn}">Sign in again</a></p>`
}`,
  );
}

export function forgotPasswordPage(view: { readonly email?: string; readonly error?: string } = {}): Html {
  return page(
    'Forgot your password?',
    html`<p>Enter the email address of your account. We will send you a link to choose a new password.</p>
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
<form method="post" action="${accountPaths.forgotPassword}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}">
<button type="submit">Send the link</button>
</form>
<p><a href="${endpointPaths.signIn}">Back to sign-in</a></p>`,
  );
}

/** The one answer to every accepted forgot-password post, whether or not the address has an account. */
export function resetLinkSentPage(): Html {
  return page(
    'Check your mail',
    html`<p>If an account exists for that address, we have sent it a link to choose a new password. The link works once, for 30 minutes.</p>
<p>No mail? Check your spam folder, or ask again in a few minutes.</p>
<p><a href="${endpointPaths.signIn}">Back to sign-in</a></p>`,
  );
}

/**
 * The token is not in the page when it came in the cookie (behaviour RESET-8); it is echoed
 * only to a caller that posted it in the form itself.
 */
export function resetPasswordPage(view: { readonly token?: string; readonly error?: string }): Html {
  return page(
    'Choose a new password',
    html`${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
<form method="post" action="${accountPaths.resetPassword}">
${view.token ? html`<input type="hidden" name="token" value="${view.token}">` : ''}
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="256" required>
<label for="password_confirmation">New password, again</label>
<input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" minlength="8" maxlength="256" required>
<button type="submit">Set the new password</button>
</form>`,
  );
}

export function resetLinkDeadPage(): Html {
  return page(
    'This link no longer works',
    html`<p>The link has expired, was already used, or a newer link or a password change replaced it.</p>
<p><a href="${accountPaths.forgotPassword}">Ask for a new link</a></p>`,
  );
}

const passkeyItems = (passkeys: readonly Passkey[]) =>
  html`<ul id="passkeys">${passkeys.map(
    (p) =>
      html`<li><strong>${passkeyLabel(p)}</strong>: added ${utcMinute(p.createdAt)}, last used ${p.lastUsedAt ? utcMinute(p.lastUsedAt) : 'never'}</li>`,
  )}</ul>`;

const apiKeyItems = (keys: readonly SelfServiceKey[]) =>
  html`<ul id="api-keys">${keys.map(
    (k) =>
      html`<li><strong>${k.name ?? 'Unnamed key'}</strong> (key id ${k.keyId}, client ${k.clientId}): created ${utcMinute(k.createdAt)}, last used ${k.lastUsedAt ? utcMinute(k.lastUsedAt) : 'never'}${k.pending ? ', still being created' : ''}</li>`,
  )}</ul>`;

/**
 * The reset completion (behaviour RESET-9, RESET-13): what the reset ended, the passkeys and the
 * self-service API keys that survive it, and ending them all in the same step, one button for
 * both: the owner cannot tell which of them an intruder set up. The form's proof travels in its
 * own cookie. A list that could not be read (undefined) is never shown as none: the page says any
 * of them still works, where to check them, and offers the step as for a listed one.
 */
export function passwordChangedPage(view: {
  readonly passkeys: readonly Passkey[] | undefined;
  readonly apiKeys: readonly SelfServiceKey[] | undefined;
}): Html {
  const passkeysToEnd = view.passkeys === undefined || view.passkeys.length > 0;
  const keysToEnd = view.apiKeys === undefined || view.apiKeys.length > 0;
  return page(
    'Password changed',
    html`<p>Your password was changed. Every session signed in to your account was ended, on every device, and every application must sign in again. We have sent you a mail about it.</p>
${
  view.passkeys === undefined
    ? html`<p id="passkeys-unread">A password change does not end passkeys: any passkey on your account still signs in without the password. They could not be listed just now: after signing in, check them on <a href="${accountPaths.passkeys}">your passkeys page</a>.</p>`
    : view.passkeys.length === 0
      ? html`<p id="no-passkeys">No passkey can sign in to your account.</p>`
      : html`<h2>Passkeys that still sign in</h2>
<p>A password change does not end passkeys: these still sign in to your account without the password.</p>
${passkeyItems(view.passkeys)}`
}
${
  view.apiKeys === undefined
    ? html`<p id="api-keys-unread">A password change does not end API keys: any key created in an application with your account still gets access tokens that act as you. They could not be listed just now: check them in the applications you use.</p>`
    : view.apiKeys.length === 0
      ? html`<p id="no-api-keys">No API key created in an application with your account can get tokens.</p>`
      : html`<h2>API keys that still get tokens</h2>
<p>A password change does not end API keys: these were created in an application with your account, and each still gets access tokens that act as you.</p>
${apiKeyItems(view.apiKeys)}`
}
${
  passkeysToEnd || keysToEnd
    ? html`<p>If you do not recognise one of them, or someone else may have had your password, end them all: every passkey is removed and every API key revoked, at once. You can add your own passkeys again after signing in, and create new keys in the applications that need them.</p>
<form method="post" action="${accountPaths.resetPasskeysRemove}">
<input type="hidden" name="remove" value="all">
<button type="submit" id="remove-all-passkeys">${!keysToEnd ? 'Remove all passkeys' : !passkeysToEnd ? 'Revoke all API keys' : 'Remove all passkeys and revoke all API keys'}</button>
</form>
<p>This works for 10 minutes. Later, sign in and remove passkeys on <a href="${accountPaths.passkeys}">your passkeys page</a>, and revoke keys in the application that created them.</p>`
    : html``
}
<p><a href="${endpointPaths.signIn}">Sign in</a> with the new password.</p>`,
  );
}

export function passkeysRemovedPage(view: { readonly removed: readonly Passkey[]; readonly revokedKeys: readonly SelfServiceKey[] }): Html {
  return page(
    view.revokedKeys.length === 0 ? 'Passkeys removed' : 'Passkeys and API keys removed',
    html`${
      view.removed.length === 0
        ? html`<p>Your account had no passkey left to remove.</p>`
        : html`<p>These passkeys were removed and no longer sign in to your account:</p>${passkeyItems(view.removed)}`
    }
${
  view.revokedKeys.length === 0
    ? html`<p>No API key created in an application with your account was left to revoke.</p>`
    : html`<p>These API keys were revoked and no longer get tokens (tokens they already got stay valid for at most an hour):</p>${apiKeyItems(view.revokedKeys)}`
}
<p>Every session was ended again. We have sent you a mail about it.</p>
<p><a href="${endpointPaths.signIn}">Sign in</a> with the new password.</p>`,
  );
}

export function recoveryExpiredPage(): Html {
  return page(
    'This step has expired',
    html`<p>Removing the passkeys works once, within 10 minutes of the password change, from the browser that made it.</p>
<p><a href="${endpointPaths.signIn}">Sign in</a> with the new password, then remove passkeys on <a href="${accountPaths.passkeys}">your passkeys page</a>.</p>`,
  );
}
