/**
 * POST /api/authorize: the sign-in step of an authorization (form: request_id, email,
 * password). The request stays stored until decided, so a wrong password can be retried.
 * Device cookies and the ceiling notice as in sign-in.ts (behaviour PWFAIL-3, PWFAIL-5).
 */
import { signInWithPassword } from '../core/account/password-attempts';
import { continueAuthorizingSignIn } from '../core/sign-in/resume';
import { parseBody } from '../http/body';
import { presentedDevice } from '../http/device-cookie';
import { authorizeSignInForm } from '../http/forms';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { withErrorPages } from '../presentation/page-errors';
import { authorizingSignInResponse, destinationOf } from '../presentation/authorizing-sign-in';
import { requestBrowser } from '../presentation/sign-in';
import { codeSent, formRefused } from '../presentation/sign-in-answers';
import { getSecondFactor } from '../wiring/account';
import { getDeviceCookies, getSignInBrowser } from '../wiring/device-cookies';
import { httpHandler } from '../wiring/handler';
import { getPasswordSignIn, withCeilingNoticeJob } from '../wiring/password-sign-in';
import { getAuthorizingSignIn } from '../wiring/authorize';

const endpoint = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(authorizeSignInForm, parseBody(event, ['form']));
    const continuation = getAuthorizingSignIn(getSecondFactor());
    // Before any Argon2id work: a made-up request id costs one read, not a hash.
    const destination = await destinationOf(continuation.resume, form, true);
    const device = await presentedDevice(event, container, getDeviceCookies());
    const user = await signInWithPassword(getPasswordSignIn(), form.email, form.password, device);
    const browser = requestBrowser(event, container, getSignInBrowser());
    const answer = await continueAuthorizingSignIn(continuation, browser, { kind: 'password', user }, destination);
    return authorizingSignInResponse(event, container, answer, browser, { refused: formRefused(form.email), codeSent });
  }),
);

export const handler = withCeilingNoticeJob(endpoint);
