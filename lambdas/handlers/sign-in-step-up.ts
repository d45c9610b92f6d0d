/**
 * POST /api/auth/step-up (behaviour MFA-10; issue 26): the first mailed code for a live session
 * whose sign-in lacks the second factor the MFA policy now asks of its user (form: request_id
 * within an authorization, else return_to). The answer is the code page of a sign-in (behaviour
 * MFA-2); the right code at POST /api/auth/otp starts a new session with amr `pwd otp mfa` and
 * goes on to the authorization or return_to. Nothing is asked when nothing is missing any more:
 * the session is then used as it is.
 */
import type { PendingAuthorization } from '../core/authorization-request';
import { AccessDeniedError, InvalidRequestError } from '../core/errors';
import { endpointPaths } from '../core/paths';
import { safeReturnTo } from '../core/sign-in';
import { stepUpForm } from '../http/account-forms';
import { decide, expiredRequest } from '../presentation/authorize-flow';
import { parseBody } from '../http/body';
import { htmlResponse, wantsHtml } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { redirect } from '../http/redirect';
import { labelClient } from '../http/request-context';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { secondFactorStep } from '../presentation/second-factor';
import { currentSession, signedInUserOf } from '../http/session';
import { validate } from '../http/validate';
import { signedInPage } from '../presentation/views/messages';
import { getSecondFactor } from '../wiring/account';
import { getAuthorizeFlowDependencies } from '../wiring/authorize';
import { httpHandler } from '../wiring/handler';
import { getClientFinder, getSessionReaders, getSessions } from '../wiring/repositories';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(stepUpForm, parseBody(event, ['form']));
    const nowEpoch = Math.floor(container.clock.now() / 1000);
    const pending = form.request_id
      ? await getSessions().getAuthorizationRequest<PendingAuthorization>(form.request_id, nowEpoch)
      : undefined;
    if (form.request_id && !pending) throw expiredRequest();
    if (pending) labelClient(pending.clientId);
    const returnTo = safeReturnTo(form.return_to);

    const current = await currentSession(event, container, getSessionReaders());
    if (!current) {
      // Signed out, expired, or the password changed meanwhile (behaviour RESET-12): a full sign-in.
      if (pending) throw new AccessDeniedError('Your sign-in has ended. Return to the application and start again.', 'no session');
      return redirect(`${endpointPaths.signIn}${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`);
    }
    if (pending?.userId && pending.userId !== current.user.id) {
      // A consent page shown to another sign-in (behaviour AUTHZ-9).
      throw new AccessDeniedError(
        'This request was started by another sign-in.',
        `session user ${current.user.id}, request user ${pending.userId}`,
      );
    }

    const codeStep = await secondFactorStep(
      event,
      container,
      getSecondFactor,
      current.user,
      pending ? { requestId: form.request_id, redirectUri: pending.redirectUri } : { returnTo },
    );
    if (codeStep) return codeStep;

    // The policy no longer asks for a code (relaxed since the page was shown): go on with the session.
    if (pending && form.request_id) {
      const client = await getClientFinder()(pending.clientId);
      if (!client) throw new InvalidRequestError('The application is no longer registered.', `client ${pending.clientId} deleted`);
      const flow = getAuthorizeFlowDependencies();
      return decide({ container, deps: flow, client, request: pending, requestId: form.request_id, user: signedInUserOf(current.session) });
    }
    if (returnTo) return redirect(returnTo);
    const { user } = current;
    return wantsHtml(event)
      ? htmlResponse(200, signedInPage(user))
      : jsonResponse(200, { user: { id: user.id, email: user.email, name: user.name } });
  }),
);
