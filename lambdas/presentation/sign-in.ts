/**
 * The answers of the sign-in continuation (lambdas/core/sign-in/continuation.ts) as responses, the
 * same at every sign-in door: the page for a browser (Accept: text/html), JSON for anything else.
 * A resumed authorization's answer is in authorizing-sign-in.ts, for the doors that may resume one.
 * The browser's side of a completed sign-in (the session cookie, behaviour SIGNIN-3, SIGNIN-4, and
 * the renewed device cookie, PWFAIL-3) is kept here until the response carries it.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { oneTimeCodeLifetimeSeconds } from '../core/account/one-time-code';
import { InvalidGrantError } from '../core/errors';
import { newSecret } from '../core/ids';
import { endpointPaths } from '../core/paths';
import type { Container } from '../core/ports';
import type { Destination, PageSignInAnswer, SignInAnswer, SignInBrowser } from '../core/sign-in/continuation';
import { renewDeviceCookie, withSetCookies, type DeviceCookieDependencies } from '../http/device-cookie';
import { badCredentials } from '../http/forms';
import { redirect } from '../http/redirect';
import { jsonResponse } from '../http/response';
import { signedInUserOf, startSession, type SessionStore } from '../http/session';
import { formTarget, htmlResponse, wantsHtml, type Brand } from './html';
import { codeExpiredPage, codePage } from './views/account';
import { signedInPage } from './views/messages';
import { signInPage } from './views/sign-in';

export const passkeyRefused = 'That passkey could not sign you in. Try again, or use your password.';

export interface SignInBrowserDependencies {
  readonly sessions: SessionStore;
  /** Read only when a sign-in completes; none at a door that never completes one (a step-up keeps its session). */
  readonly devices?: () => DeviceCookieDependencies;
  /** The site's title and logo on a consent page that follows (behaviour SITE-4). */
  readonly brand: () => Promise<Brand>;
}

/** The request's browser as the continuation sees it: the Set-Cookie lines wait in `cookies`. */
export interface RequestBrowser extends SignInBrowser {
  readonly cookies: { session?: string; device?: string };
  readonly brand: () => Promise<Brand>;
}

export function requestBrowser(event: APIGatewayProxyEvent, container: Container, deps: SignInBrowserDependencies): RequestBrowser {
  const cookies: RequestBrowser['cookies'] = {};
  return {
    cookies,
    brand: deps.brand,
    async startSession(user, amr) {
      const { session, setCookie } = await startSession(event, container, deps.sessions, user, amr);
      cookies.session = setCookie;
      return signedInUserOf(session);
    },
    async renewDevice(userId) {
      if (!deps.devices) throw new Error('this sign-in door was wired without device cookies');
      cookies.device = await renewDeviceCookie(event, container, deps.devices(), userId);
    },
  };
}

/** The new session's Set-Cookie, when the sign-in started one (a step-up keeps its session). */
export const sessionCookieOf = (browser: RequestBrowser): Record<string, string> =>
  browser.cookies.session ? { 'Set-Cookie': browser.cookies.session } : {};

/** Back to the sign-in page, to return to the page the step-up was for (behaviour MFA-10, SIGNIN-6). */
export function signInAgain(destination: Destination): APIGatewayProxyResult {
  const returnTo = destination.kind === 'page' ? destination.returnTo : undefined;
  return redirect(`${endpointPaths.signIn}${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`);
}

const redirectUriOf = (destination: Destination) => (destination.kind === 'authorization' ? destination.request.redirectUri : undefined);
const formTargetsOf = (destination: Destination) => {
  const redirectUri = redirectUriOf(destination);
  return [redirectUri ? formTarget(redirectUri) : undefined];
};
const requestIdOf = (destination: Destination) => (destination.kind === 'authorization' ? { requestId: destination.requestId } : {});

/** The sign-in form again, with the refusal (behaviour SIGNIN-2, PASSKEY-6); the passkey button still offered. */
function refusedPage(container: Container, destination: Destination, error: string, email: string | undefined): APIGatewayProxyResult {
  const passkeyNonce = newSecret(container.random);
  const authorization = destination.kind === 'authorization' ? destination : undefined;
  const client = authorization?.client;
  const view = {
    action: authorization ? endpointPaths.authorize : endpointPaths.signIn,
    hidden: authorization
      ? { request_id: authorization.requestId }
      : { return_to: destination.kind === 'page' ? destination.returnTo : undefined },
    ...(email !== undefined ? { email } : {}),
    error,
    clientName: client?.registrationType === 'static' ? client.name : undefined,
    passkeyNonce,
  };
  return htmlResponse(401, signInPage(view), { formTargets: formTargetsOf(destination), scriptNonce: passkeyNonce });
}

async function codeRefused(event: APIGatewayProxyEvent, answer: Extract<SignInAnswer, { factor: 'code' }>): Promise<APIGatewayProxyResult> {
  const { wrong, destination } = answer;
  if (!wrong) {
    if (!wantsHtml(event)) throw new InvalidGrantError('This code has expired or has been used up. Sign in again.', answer.reason);
    return htmlResponse(400, codeExpiredPage(destination.kind === 'authorization'));
  }
  const error = `That code is not right. ${wrong.triesLeft} ${wrong.triesLeft === 1 ? 'try' : 'tries'} left.`;
  if (!wantsHtml(event)) return jsonResponse(400, { error: 'invalid_grant', error_description: error });
  const view = {
    challengeId: answer.challengeId,
    maskedEmail: (await wrong.maskedEmail()) ?? 'your address',
    error,
    ...requestIdOf(destination),
  };
  return htmlResponse(400, codePage(view), { formTargets: formTargetsOf(destination) });
}

/** The response to the continuation's answer; `email` is shown again on a refused password form. */
export async function signInResponse(
  event: APIGatewayProxyEvent,
  container: Container,
  answer: PageSignInAnswer,
  browser: RequestBrowser,
  email?: string,
): Promise<APIGatewayProxyResult> {
  const html = wantsHtml(event);
  if (answer.kind === 'refused') {
    if (answer.factor === 'code') return codeRefused(event, answer);
    const error = answer.factor === 'password' ? badCredentials : passkeyRefused;
    return html
      ? refusedPage(container, answer.destination, error, email)
      : jsonResponse(401, { error: 'access_denied', error_description: error });
  }
  if (answer.kind === 'needs-code') {
    const { challengeId, maskedEmail, destination } = answer;
    if (!html) {
      const body = { second_factor: 'email_otp', challenge_id: challengeId, sent_to: maskedEmail, expires_in: oneTimeCodeLifetimeSeconds };
      return jsonResponse(200, body);
    }
    return htmlResponse(200, codePage({ challengeId, maskedEmail, ...requestIdOf(destination) }), {
      formTargets: formTargetsOf(destination),
    });
  }
  const { device } = browser.cookies;
  const headers = sessionCookieOf(browser);
  if (answer.kind === 'return-to') return withSetCookies(redirect(answer.path, headers), [device]);
  const { user, userId } = answer;
  const page =
    html && user
      ? htmlResponse(200, signedInPage(user), { headers })
      : jsonResponse(200, { user: { id: userId, email: user?.email, name: user?.name } }, { headers });
  return withSetCookies(page, [device]);
}
