/**
 * The page asking a signed-in user for a second factor their sign-in lacked (behaviour MFA-10,
 * AUTHZ-12, DASH-1): a button that mails the code, because a GET must never send mail
 * (a cross-site navigation could otherwise spend the user's codes, behaviour MFA-8), and the
 * passkey sign-in, which needs no code. No script but the passkey button's.
 */
import { accountPaths } from '../../core/account/paths';
import { html, page, type Html } from '../html';
import { passkeySignInPart } from './passkeys';

export interface StepUpView {
  /** Where the code goes, masked (a•••@example.com). */
  readonly maskedEmail: string;
  /** The authorization's request_id, or the page to return to (return_to). */
  readonly hidden: Readonly<Record<string, string | undefined>>;
  /** Names a vetted (static) client within an authorization. */
  readonly clientName?: string;
  /** The page's script nonce: offers "Sign in with a passkey" instead. */
  readonly passkeyNonce?: string;
}

export function stepUpPage(view: StepUpView): Html {
  const hidden = Object.entries(view.hidden).filter((e): e is [string, string] => e[1] !== undefined);
  return page(
    'Confirm it is you',
    html`${view.clientName ? html`<p>to continue to <strong>${view.clientName}</strong></p>` : ''}
<p>This account now needs a second factor to sign in. We will send a 6-digit code to <strong>${view.maskedEmail}</strong>.</p>
<form method="post" action="${accountPaths.stepUp}">
${hidden.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit">Email me a code</button>
</form>
${view.passkeyNonce ? passkeySignInPart(view.passkeyNonce, view.hidden) : ''}`,
  );
}
