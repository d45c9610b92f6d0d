/**
 * POST /api/auth/passkey/verify (spec 4.10): sign in with a passkey (behaviour PASSKEY-3..PASSKEY-6;
 * form: credential, and return_to or request_id). One of the two functions that bundle
 * @simplewebauthn/server (loaded on first use). A verified assertion starts a session with amr `hwk user mfa` and no
 * mailed code (user verification already made it multi-factor); the sign-in then continues as
 * after a password: to return_to, or on with the authorization. Every refusal is the same answer.
 * The completed sign-in renews the browser's device cookie (behaviour PWFAIL-3); the password
 * ceiling is never consulted here (PWFAIL-7).
 */
import { finishSignIn } from '../core/account/passkeys';
import { continuePasskeyOrCodeSignIn } from '../core/sign-in/passkey-or-code';
import { parseBody } from '../http/body';
import { passkeySignInForm } from '../http/passkey-forms';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { withErrorPages } from '../presentation/page-errors';
import { authorizingSignInResponse, destinationOf } from '../presentation/authorizing-sign-in';
import { requestBrowser } from '../presentation/sign-in';
import { formRefused } from '../presentation/sign-in-answers';
import { getSignInBrowser } from '../wiring/device-cookies';
import { httpHandler } from '../wiring/handler';
import { getPasskeyCeremonies } from '../wiring/passkeys';
import { getPasskeyVerifier } from '../wiring/webauthn';
import { getAuthorizingSignIn } from '../wiring/authorize';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(passkeySignInForm, parseBody(event, ['form']));
    const continuation = getAuthorizingSignIn();
    // The authorization must still be open before a ceremony is spent on it.
    const destination = await destinationOf(continuation.resume, form, true);
    const outcome = await finishSignIn(getPasskeyCeremonies(), getPasskeyVerifier(), form.credential);
    const browser = requestBrowser(event, container, getSignInBrowser());
    const answer = await continuePasskeyOrCodeSignIn(continuation, browser, { kind: 'passkey', outcome }, destination);
    return authorizingSignInResponse(event, container, answer, browser, { refused: formRefused() });
  }),
);
