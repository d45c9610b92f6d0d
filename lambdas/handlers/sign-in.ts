/**
 * POST /api/auth/signin: email and password (form-encoded). Success starts a session and
 * sends the browser to `return_to` (same-origin paths only) or shows who is signed in.
 * The browser's device cookie is read before the password is counted, and renewed by a
 * completed sign-in (behaviour PWFAIL-3); the function also runs the owner's notice of a tripped
 * ceiling when it invokes itself (PWFAIL-5).
 */
import { signInWithPassword } from '../core/account/password-attempts';
import { safeReturnTo } from '../core/sign-in';
import { continueSignIn } from '../core/sign-in/page';
import { parseBody } from '../http/body';
import { presentedDevice } from '../http/device-cookie';
import { signInForm } from '../http/forms';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { withErrorPages } from '../presentation/page-errors';
import { requestBrowser, signInResponse } from '../presentation/sign-in';
import { codeSent, formRefused } from '../presentation/sign-in-answers';
import { getSecondFactor } from '../wiring/account';
import { getDeviceCookies, getSignInBrowser } from '../wiring/device-cookies';
import { httpHandler } from '../wiring/handler';
import { getPasswordSignIn, withCeilingNoticeJob } from '../wiring/password-sign-in';
import { getSignInContinuation } from '../wiring/sign-in';

const endpoint = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(signInForm, parseBody(event, ['form']));
    const destination = { kind: 'page', returnTo: safeReturnTo(form.return_to) } as const;
    const device = await presentedDevice(event, container, getDeviceCookies());
    const user = await signInWithPassword(getPasswordSignIn(), form.email, form.password, device);
    const browser = requestBrowser(event, container, getSignInBrowser());
    const answer = await continueSignIn(getSignInContinuation(getSecondFactor()), browser, { kind: 'password', user }, destination);
    return signInResponse(event, container, answer, browser, { refused: formRefused(form.email), codeSent });
  }),
);

export const handler = withCeilingNoticeJob(endpoint);
