/**
 * POST /api/authorize: the sign-in step of an authorization (form: request_id, email,
 * password). The request stays stored until decided, so a wrong password can be retried.
 * Device cookies and the ceiling notice as in sign-in.ts (behaviour PWFAIL-3, PWFAIL-5).
 */
import { presentedDevice, renewDeviceCookie, withSetCookies } from '../http/device-cookie';
import { getDeviceCookies } from '../wiring/device-cookies';
import { newSecret } from '../core/ids';
import type { PendingAuthorization } from '../core/authorization-request';
import { InvalidRequestError } from '../core/errors';
import { signInWithPassword } from '../core/account/password-attempts';
import { decide, expiredRequest } from '../presentation/authorize-flow';
import { parseBody } from '../http/body';
import { authorizeSignInForm, badCredentials } from '../http/forms';
import { httpHandler } from '../wiring/handler';
import { formTarget, htmlResponse, wantsHtml } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { secondFactorStep } from '../presentation/second-factor';
import { signedInUserOf, startSession } from '../http/session';
import { validate } from '../http/validate';
import { signInPage } from '../presentation/views/sign-in';
import { endpointPaths } from '../core/paths';
import { getSecondFactor } from '../wiring/account';
import { getPasswordSignIn, withCeilingNoticeJob } from '../wiring/password-sign-in';
import { getClientFinder, getSessions } from '../wiring/repositories';
import { getAuthorizeFlowDependencies } from '../wiring/authorize';
import { metricNames } from '../core/metrics';
import { labelClient } from '../http/request-context';

const endpoint = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(authorizeSignInForm, parseBody(event, ['form']));
    const sessions = getSessions();
    const findClient = getClientFinder();
    // Before any Argon2id work: a made-up request id costs one read, not a hash.
    const pending = await sessions.getAuthorizationRequest<PendingAuthorization>(form.request_id, Math.floor(container.clock.now() / 1000));
    if (!pending) throw expiredRequest();
    labelClient(pending.clientId);
    const client = await findClient(pending.clientId);
    if (!client) throw new InvalidRequestError('The application is no longer registered.', `client ${pending.clientId} deleted`);

    const deviceCookies = getDeviceCookies();
    const device = await presentedDevice(event, container, deviceCookies);
    const user = await signInWithPassword(getPasswordSignIn(), form.email, form.password, device);
    if (!user) {
      container.log.info('sign-in refused', { reason: 'unknown email or wrong password', clientId: client.clientId });
      container.metrics.count(metricNames.signInFailed, { method: 'password' });
      const view = {
        action: endpointPaths.authorize,
        hidden: { request_id: form.request_id },
        email: form.email,
        error: badCredentials,
        clientName: client.registrationType === 'static' ? client.name : undefined,
        passkeyNonce: newSecret(container.random),
      };
      return wantsHtml(event)
        ? htmlResponse(401, signInPage(view), { formTargets: [formTarget(pending.redirectUri)], scriptNonce: view.passkeyNonce })
        : jsonResponse(401, { error: 'access_denied', error_description: badCredentials });
    }
    const codeStep = await secondFactorStep(event, container, getSecondFactor, user, {
      requestId: form.request_id,
      redirectUri: pending.redirectUri,
    });
    if (codeStep) return codeStep;
    const { session, setCookie } = await startSession(event, container, sessions, user);
    const deviceCookie = await renewDeviceCookie(event, container, deviceCookies, user.id);
    const response = await decide({
      container,
      deps: getAuthorizeFlowDependencies(),
      client,
      request: pending,
      requestId: form.request_id,
      user: signedInUserOf(session),
      headers: { 'Set-Cookie': setCookie },
    });
    return withSetCookies(response, [deviceCookie]);
  }),
);

export const handler = withCeilingNoticeJob(endpoint);
