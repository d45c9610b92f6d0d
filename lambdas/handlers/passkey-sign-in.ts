/**
 * POST /api/auth/passkey/verify (spec 4.10): sign in with a passkey (behaviour PASSKEY-3..PASSKEY-6;
 * issue 13; form: credential, and return_to or request_id). One of the two functions that bundle
 * @simplewebauthn/server (loaded on first use). A verified assertion starts a session with amr `hwk user mfa` and no
 * mailed code (user verification already made it multi-factor); the sign-in then continues as
 * after a password: to return_to, or on with the authorization. Every refusal is the same answer.
 * The completed sign-in renews the browser's device cookie (behaviour PWFAIL-3); the password
 * ceiling is never consulted here (PWFAIL-7).
 */
import { renewDeviceCookie, withSetCookies } from '../http/device-cookie';
import { getDeviceCookies } from '../wiring/device-cookies';
import type { PendingAuthorization } from '../core/authorization-request';
import { finishSignIn, passkeyAmr, type ExpectedCeremony, type Passkey } from '../core/account/passkeys';
import { InvalidRequestError } from '../core/errors';
import { newSecret } from '../core/ids';
import type { Logger } from '../core/ports';
import { endpointPaths } from '../core/paths';
import { safeReturnTo } from '../core/sign-in';
import { decide, expiredRequest } from '../presentation/authorize-flow';
import { parseBody } from '../http/body';
import { formTarget, htmlResponse, wantsHtml } from '../presentation/html';
import { passkeySignInForm } from '../http/passkey-forms';
import { withErrorPages } from '../presentation/page-errors';
import { redirect } from '../http/redirect';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { signedInUserOf, startSession } from '../http/session';
import { validate } from '../http/validate';
import { signedInPage } from '../presentation/views/messages';
import { signInPage } from '../presentation/views/sign-in';
import { getAuthorizeFlowDependencies } from '../wiring/authorize';
import { httpHandler } from '../wiring/handler';
import { getPasskeys } from '../wiring/passkeys';
import { getClientFinder, getSessions } from '../wiring/repositories';
import { metricNames } from '../core/metrics';
import { labelClient } from '../http/request-context';

export const passkeyRefused = 'That passkey could not sign you in. Try again, or use your password.';

type WebAuthn = typeof import('@simplewebauthn/server');
/** Loaded on the first verification, not at import (as in passkey-register.ts: the 50 ms import budget). */
let webAuthn: Promise<WebAuthn> | undefined;
const loadWebAuthn = () => (webAuthn ??= import('@simplewebauthn/server'));

const assertionVerifier = (log: Logger) => ({
  async assertion(response: unknown, expected: ExpectedCeremony, passkey: Passkey) {
    try {
      const { verifyAuthenticationResponse } = await loadWebAuthn();
      const result = await verifyAuthenticationResponse({
        response: { clientExtensionResults: {}, ...(response as object) } as Parameters<
          WebAuthn['verifyAuthenticationResponse']
        >[0]['response'],
        expectedChallenge: expected.challenge,
        expectedOrigin: expected.origin,
        expectedRPID: expected.rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: Buffer.from(passkey.publicKey, 'base64url'),
          counter: passkey.counter,
          ...(passkey.transports ? { transports: passkey.transports as never } : {}),
        },
        requireUserVerification: true,
      });
      return result.verified ? { counter: result.authenticationInfo.newCounter } : undefined;
    } catch (error) {
      // The library's reasons (origin, RP ID, flags, signature, counter) are logged, never shown.
      log.info('passkey assertion failed verification', { reason: (error as Error).message });
      return undefined;
    }
  },
});

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(passkeySignInForm, parseBody(event, ['form']));
    const returnTo = safeReturnTo(form.return_to);
    const sessions = getSessions();
    // The authorization must still be open before a ceremony is spent on it.
    const pending = form.request_id
      ? await sessions.getAuthorizationRequest<PendingAuthorization>(form.request_id, Math.floor(container.clock.now() / 1000))
      : undefined;
    if (form.request_id && !pending) throw expiredRequest();
    if (pending) labelClient(pending.clientId);
    const client = pending ? await getClientFinder()(pending.clientId) : undefined;
    if (pending && !client) throw new InvalidRequestError('The application is no longer registered.', `client ${pending.clientId} deleted`);

    const outcome = await finishSignIn(getPasskeys(), assertionVerifier(container.log), form.credential);
    if (outcome.kind === 'refused') {
      container.log.info('passkey sign-in refused', { reason: outcome.reason });
      container.metrics.count(metricNames.signInFailed, { method: 'passkey' });
      if (!wantsHtml(event)) return jsonResponse(401, { error: 'access_denied', error_description: passkeyRefused });
      const nonce = newSecret(container.random);
      const view = {
        action: pending ? endpointPaths.authorize : endpointPaths.signIn,
        hidden: pending ? { request_id: form.request_id } : { return_to: returnTo },
        error: passkeyRefused,
        clientName: client?.registrationType === 'static' ? client.name : undefined,
        passkeyNonce: nonce,
      };
      return htmlResponse(401, signInPage(view), {
        formTargets: [pending ? formTarget(pending.redirectUri) : undefined],
        scriptNonce: nonce,
      });
    }

    const { user } = outcome;
    const { session, setCookie } = await startSession(event, container, sessions, user, passkeyAmr);
    const headers = { 'Set-Cookie': setCookie };
    container.log.info('signed in with a passkey', { userId: user.id });
    const deviceCookie = await renewDeviceCookie(event, container, getDeviceCookies(), user.id);
    if (pending && client && form.request_id) {
      const decided = await decide({
        container,
        deps: getAuthorizeFlowDependencies(),
        client,
        request: pending,
        requestId: form.request_id,
        user: signedInUserOf(session),
        headers,
      });
      return withSetCookies(decided, [deviceCookie]);
    }
    if (returnTo) return withSetCookies(redirect(returnTo, headers), [deviceCookie]);
    const page = wantsHtml(event)
      ? htmlResponse(200, signedInPage(user), { headers })
      : jsonResponse(200, { user: { id: user.id, email: user.email, name: user.name } }, { headers });
    return withSetCookies(page, [deviceCookie]);
  }),
);
