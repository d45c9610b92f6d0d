/** The sign-in form: a plain HTML form post, no JavaScript needed (the passkey button needs it). The password is never echoed back. */
import { accountPaths } from '../../core/account/paths';
import { html, page, type Html } from '../html';
import { passkeySignInPart } from './passkeys';

export interface SignInView {
  /** Where the form posts: /api/auth/signin, or /api/authorize within an authorization. */
  readonly action: string;
  /** return_to, or the authorization request id. */
  readonly hidden?: Readonly<Record<string, string | undefined>>;
  readonly email?: string;
  readonly error?: string;
  /**
   * Within an authorization, the application asking (behaviour AUTHZ-20). A self-registered
   * client's name is whatever its registrant typed, so the page says nobody vetted it, as the
   * consent page does.
   */
  readonly client?: { readonly name: string; readonly selfRegistered: boolean };
  /** The page's script nonce: offers "Sign in with a passkey" (behaviour PASSKEY-3), posting the same hidden fields. */
  readonly passkeyNonce?: string;
}

export function signInPage(view: SignInView): Html {
  const hidden = Object.entries(view.hidden ?? {}).filter((e): e is [string, string] => e[1] !== undefined);
  return page(
    'Sign in',
    html`${view.client ? continuingTo(view.client) : ''}
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
<form method="post" action="${view.action}">
${hidden.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
${view.passkeyNonce ? passkeySignInPart(view.passkeyNonce, view.hidden ?? {}) : ''}
<p><a href="${accountPaths.forgotPassword}">Forgot your password?</a></p>`,
  );
}

function continuingTo(client: NonNullable<SignInView['client']>): Html {
  return html`<p id="continuing-to">Sign in to continue to <strong>${client.name}</strong></p>${
    client.selfRegistered
      ? html`<p class="warning" id="self-registered">This application registered itself with this server. It has not been reviewed or vetted by your administrators, and it chose its name itself.</p>`
      : ''
  }`;
}
