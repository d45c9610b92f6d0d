/**
 * POST /api/auth/otp: the mailed code of a sign-in (behaviour MFA-4..MFA-6; issue 12; form:
 * challenge_id, code, and request_id within an authorization). The right code starts the session
 * (amr pwd otp mfa, RFC 8176) and the sign-in continues as after a password alone: to return_to, or
 * on with the authorization (consent, redirect with code, state and iss). The completed sign-in
 * renews the browser's device cookie (behaviour PWFAIL-3).
 */
import { renewDeviceCookie, withSetCookies } from '../http/device-cookie';
import { getDeviceCookies } from '../wiring/device-cookies';
import type { PendingAuthorization } from '../core/authorization-request';
import { completeChallenge, passwordAndCodeAmr } from '../core/account/second-factor';
import { InvalidGrantError, InvalidRequestError } from '../core/errors';
import { signInCodeForm } from '../http/account-forms';
import { decide, expiredRequest } from '../presentation/authorize-flow';
import { parseBody } from '../http/body';
import { httpHandler } from '../wiring/handler';
import { formTarget, htmlResponse, wantsHtml } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { redirect } from '../http/redirect';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { signedInUserOf, startSession } from '../http/session';
import { validate } from '../http/validate';
import { codeExpiredPage, codePage } from '../presentation/views/account';
import { signedInPage } from '../presentation/views/messages';
import { getSecondFactor } from '../wiring/account';
import { getClientFinder, getSessions, getUsers } from '../wiring/repositories';
import { maskEmail } from '../core/account/one-time-code';
import { getAuthorizeFlowDependencies } from '../wiring/authorize';
import { metricNames } from '../core/metrics';
import { labelClient } from '../http/request-context';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(signInCodeForm, parseBody(event, ['form']));
    const sessions = getSessions();
    const findClient = getClientFinder();
    const users = getUsers();
    const nowEpoch = Math.floor(container.clock.now() / 1000);
    // The authorization must still be open before the code is spent on it.
    const pending = form.request_id ? await sessions.getAuthorizationRequest<PendingAuthorization>(form.request_id, nowEpoch) : undefined;
    if (form.request_id && !pending) throw expiredRequest();
    if (pending) labelClient(pending.clientId);
    const formTargets = [pending ? formTarget(pending.redirectUri) : undefined];

    const outcome = await completeChallenge(getSecondFactor(), form.challenge_id, form.code, form.request_id);
    if (outcome.kind === 'wrong') {
      container.log.info('sign-in code refused', { reason: 'wrong code', triesLeft: outcome.triesLeft });
      container.metrics.count(metricNames.signInCodeFailed, { reason: outcome.kind });
      const error = `That code is not right. ${outcome.triesLeft} ${outcome.triesLeft === 1 ? 'try' : 'tries'} left.`;
      if (!wantsHtml(event)) return jsonResponse(400, { error: 'invalid_grant', error_description: error });
      const challenge = await getSecondFactor().challenges.get(form.challenge_id, nowEpoch);
      const view = {
        challengeId: form.challenge_id,
        maskedEmail: challenge ? maskEmail(challenge.email) : 'your address',
        error,
        ...(form.request_id ? { requestId: form.request_id } : {}),
      };
      return htmlResponse(400, codePage(view), { formTargets });
    }
    if (outcome.kind !== 'match') {
      container.log.info('sign-in code refused', { reason: outcome.reason });
      container.metrics.count(metricNames.signInCodeFailed, { reason: outcome.kind });
      if (!wantsHtml(event)) throw new InvalidGrantError('This code has expired or has been used up. Sign in again.', outcome.reason);
      return htmlResponse(400, codeExpiredPage(pending !== undefined));
    }

    const challenge = outcome.item;
    const { session, setCookie } = await startSession(
      event,
      container,
      getSessions(),
      { id: challenge.userId, credentialVersion: challenge.credentialVersion },
      passwordAndCodeAmr,
    );
    const headers = { 'Set-Cookie': setCookie };
    const deviceCookie = await renewDeviceCookie(event, container, getDeviceCookies(), challenge.userId);
    if (pending && form.request_id) {
      const client = await findClient(pending.clientId);
      if (!client) throw new InvalidRequestError('The application is no longer registered.', `client ${pending.clientId} deleted`);
      const user = signedInUserOf(session);
      const decided = await decide({
        container,
        deps: getAuthorizeFlowDependencies(),
        client,
        request: pending,
        requestId: form.request_id,
        user,
        headers,
      });
      return withSetCookies(decided, [deviceCookie]);
    }
    if (challenge.returnTo) return withSetCookies(redirect(challenge.returnTo, headers), [deviceCookie]);
    const user = await users.get(challenge.userId);
    const page =
      wantsHtml(event) && user
        ? htmlResponse(200, signedInPage(user), { headers })
        : jsonResponse(200, { user: { id: challenge.userId, email: user?.email, name: user?.name } }, { headers });
    return withSetCookies(page, [deviceCookie]);
  }),
);
