/**
 * POST /api/auth/otp: the mailed code of a sign-in (behaviour MFA-4..MFA-6; form: challenge_id,
 * code, and request_id within an authorization). The right code starts the session (amr pwd otp
 * mfa, RFC 8176) and the sign-in continues as after a password alone: to return_to, or on with the
 * authorization (consent, redirect with code, state and iss). The completed sign-in renews the
 * browser's device cookie (behaviour PWFAIL-3).
 */
import { completeChallenge } from '../core/account/second-factor';
import { continuePasskeyOrCodeSignIn } from '../core/sign-in/passkey-or-code';
import { signInCodeForm } from '../http/account-forms';
import { parseBody } from '../http/body';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { withErrorPages } from '../presentation/page-errors';
import { authorizingSignInResponse, destinationOf } from '../presentation/authorizing-sign-in';
import { requestBrowser } from '../presentation/sign-in';
import { codeRefused } from '../presentation/sign-in-answers';
import { getChallengeChecks } from '../wiring/account';
import { getSignInBrowser } from '../wiring/device-cookies';
import { httpHandler } from '../wiring/handler';
import { getAuthorizingSignIn } from '../wiring/authorize';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(signInCodeForm, parseBody(event, ['form']));
    const checks = getChallengeChecks();
    const continuation = getAuthorizingSignIn(checks);
    // The authorization must still be open before the code is spent on it; a page's return_to is the challenge's.
    const destination = await destinationOf(continuation.resume, { request_id: form.request_id });
    const check = await completeChallenge(checks, form.challenge_id, form.code, form.request_id);
    const browser = requestBrowser(event, container, getSignInBrowser());
    const answer = await continuePasskeyOrCodeSignIn(
      continuation,
      browser,
      { kind: 'code', challengeId: form.challenge_id, check },
      destination,
    );
    return authorizingSignInResponse(event, container, answer, browser, { refused: codeRefused });
  }),
);
