/**
 * POST /api/auth/step-up (behaviour MFA-10): the first mailed code for a live session whose
 * sign-in lacks the second factor the MFA policy now asks of its user (form: request_id within an
 * authorization, else return_to). The answer is the code page of a sign-in (behaviour MFA-2); the
 * right code at POST /api/auth/otp starts a new session with amr `pwd otp mfa` and goes on to the
 * authorization or return_to. Nothing is asked when nothing is missing any more: the session is
 * then used as it is.
 */
import { sessionToStepUp } from '../core/sign-in/continuation';
import { continueAuthorizingSignIn } from '../core/sign-in/resume';
import { stepUpForm } from '../http/account-forms';
import { parseBody } from '../http/body';
import { assertSameOrigin } from '../http/same-origin';
import { currentSession, signedInUserOf } from '../http/session';
import { validate } from '../http/validate';
import { withErrorPages } from '../presentation/page-errors';
import { authorizingSignInResponse, destinationOf } from '../presentation/authorizing-sign-in';
import { requestBrowser, signInAgain } from '../presentation/sign-in';
import { codeSent } from '../presentation/sign-in-answers';
import { getSecondFactor } from '../wiring/account';
import { httpHandler } from '../wiring/handler';
import { getSessionReaders } from '../wiring/repositories';
import { getAuthorizingSignIn } from '../wiring/authorize';
import { getBrand } from '../wiring/site';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(stepUpForm, parseBody(event, ['form']));
    const continuation = getAuthorizingSignIn(getSecondFactor());
    const destination = await destinationOf(continuation.resume, form);
    const current = await currentSession(event, container, getSessionReaders());
    const session = sessionToStepUp(current && { user: current.user, signedIn: signedInUserOf(current.session) }, destination);
    if (!session) return signInAgain(destination);
    const browser = requestBrowser(event, container, { brand: getBrand });
    const answer = await continueAuthorizingSignIn(continuation, browser, { kind: 'session', ...session }, destination);
    return authorizingSignInResponse(event, container, answer, browser, { codeSent });
  }),
);
