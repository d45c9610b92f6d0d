/**
 * POST /api/auth/signin: email and password (form-encoded). Success starts a session and
 * sends the browser to `return_to` (same-origin paths only) or shows who is signed in.
 * The browser's device cookie is read before the password is counted, and renewed by a
 * completed sign-in (behaviour PWFAIL-3); the function also runs the owner's notice of a tripped
 * ceiling when it invokes itself (PWFAIL-5).
 */
import { presentedDevice, renewDeviceCookie, withSetCookies } from '../http/device-cookie';
import { getDeviceCookies } from '../wiring/device-cookies';
import { newSecret } from '../core/ids';
import { signInWithPassword } from '../core/account/password-attempts';
import { safeReturnTo } from '../core/sign-in';
import { parseBody } from '../http/body';
import { redirect } from '../http/redirect';
import { badCredentials, signInForm } from '../http/forms';
import { httpHandler } from '../wiring/handler';
import { htmlResponse, wantsHtml } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { secondFactorStep } from '../presentation/second-factor';
import { startSession } from '../http/session';
import { validate } from '../http/validate';
import { signedInPage } from '../presentation/views/messages';
import { signInPage } from '../presentation/views/sign-in';
import { endpointPaths } from '../core/paths';
import { getSecondFactor } from '../wiring/account';
import { getPasswordSignIn, withCeilingNoticeJob } from '../wiring/password-sign-in';
import { getSessions } from '../wiring/repositories';
import { metricNames } from '../core/metrics';

const endpoint = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(signInForm, parseBody(event, ['form']));
    const returnTo = safeReturnTo(form.return_to);
    const deviceCookies = getDeviceCookies();
    const device = await presentedDevice(event, container, deviceCookies);
    const user = await signInWithPassword(getPasswordSignIn(), form.email, form.password, device);
    if (!user) {
      container.log.info('sign-in refused', { reason: 'unknown email or wrong password' });
      container.metrics.count(metricNames.signInFailed, { method: 'password' });
      if (!wantsHtml(event)) return jsonResponse(401, { error: 'access_denied', error_description: badCredentials });
      // The page offered a passkey before the failed attempt; it still does (issue 13).
      const passkeyNonce = newSecret(container.random);
      const view = {
        action: endpointPaths.signIn,
        hidden: { return_to: returnTo },
        email: form.email,
        error: badCredentials,
        passkeyNonce,
      };
      return htmlResponse(401, signInPage(view), { scriptNonce: passkeyNonce });
    }
    const codeStep = await secondFactorStep(event, container, getSecondFactor, user, { returnTo });
    if (codeStep) return codeStep;
    const { setCookie } = await startSession(event, container, getSessions(), user);
    const headers = { 'Set-Cookie': setCookie };
    const deviceCookie = await renewDeviceCookie(event, container, deviceCookies, user.id);
    if (returnTo) return withSetCookies(redirect(returnTo, headers), [deviceCookie]);
    return withSetCookies(
      wantsHtml(event)
        ? htmlResponse(200, signedInPage(user), { headers })
        : jsonResponse(200, { user: { id: user.id, email: user.email, name: user.name } }, { headers }),
      [deviceCookie],
    );
  }),
);

export const handler = withCeilingNoticeJob(endpoint);
