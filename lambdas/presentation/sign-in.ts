/**
 * The answers of the sign-in continuation (lambdas/core/sign-in/continuation.ts) as responses, the
 * same at every sign-in door: the page for a browser (Accept: text/html), JSON for anything else.
 * A resumed authorization's answer is in authorizing-sign-in.ts, for the doors that may resume one.
 * The browser's side of a completed sign-in (the session cookie, behaviour SIGNIN-3, SIGNIN-4, and
 * the renewed device cookie, PWFAIL-3) is kept here until the response carries it.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { endpointPaths } from '../core/paths';
import type { Container } from '../http/container';
import type { Destination, PageSignInAnswer, SignInAnswer, SignInBrowser } from '../core/sign-in/continuation';
import { withSetCookies } from '../http/device-cookie';
import { redirect } from '../http/redirect';
import { jsonResponse } from '../http/response';
import { signedInUserOf } from '../http/session';
import type { Session, User } from '../core/model';
import { htmlResponse, wantsHtml, type Brand } from './html';
import { signedInPage } from './views/messages';

export interface SignInBrowserDependencies {
  /**
   * Starts the new session (http/session.ts startSession: the browser's previous one ends); none at
   * the step-up, which keeps its session and so does not bundle starting one.
   */
  readonly startSession?: (
    event: APIGatewayProxyEvent,
    container: Container,
    user: Pick<User, 'id' | 'credentialVersion'>,
    amr: readonly string[],
  ) => Promise<{ readonly session: Session; readonly setCookie: string }>;
  /**
   * The renewed device cookie's Set-Cookie (http/device-cookie.ts renewDeviceCookie); none at a door
   * that never completes a sign-in (a step-up keeps its session), which then does not bundle it.
   */
  readonly renewDevice?: (event: APIGatewayProxyEvent, container: Container, userId: string) => Promise<string | undefined>;
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
      if (!deps.startSession) throw new Error('this sign-in door was wired without starting sessions');
      const { session, setCookie } = await deps.startSession(event, container, user, amr);
      cookies.session = setCookie;
      return signedInUserOf(session);
    },
    async renewDevice(userId) {
      if (!deps.renewDevice) throw new Error('this sign-in door was wired without device cookies');
      cookies.device = await deps.renewDevice(event, container, userId);
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

type Refusal = Extract<SignInAnswer, { readonly kind: 'refused' }>;
type CodeSent = Extract<SignInAnswer, { readonly kind: 'needs-code' }>;

/**
 * The pages of the answers a door's factor can get (sign-in-answers.ts): the sign-in form again or
 * the code page for a refusal, the code page once a code is mailed. A door leaves out what it never
 * answers, and its function does not bundle those pages (a passkey's door never shows the code page).
 */
export interface AnswerPages {
  /** `brand`: the site's title and logo, on the page as on the sign-in page before it (behaviour SITE-4). */
  readonly refused?: (event: APIGatewayProxyEvent, container: Container, answer: Refusal, brand: Brand) => Promise<APIGatewayProxyResult>;
  readonly codeSent?: (event: APIGatewayProxyEvent, answer: CodeSent, brand: Brand) => APIGatewayProxyResult;
}

const noPage = (answer: SignInAnswer): never => {
  throw new Error(`this sign-in door was given no page for the ${answer.kind} answer`);
};

/** The response to the continuation's answer, the pages as the door gives them. */
export async function signInResponse(
  event: APIGatewayProxyEvent,
  container: Container,
  answer: PageSignInAnswer,
  browser: RequestBrowser,
  pages: AnswerPages,
): Promise<APIGatewayProxyResult> {
  if (answer.kind === 'refused') return pages.refused ? pages.refused(event, container, answer, await browser.brand()) : noPage(answer);
  if (answer.kind === 'needs-code') return pages.codeSent ? pages.codeSent(event, answer, await browser.brand()) : noPage(answer);
  const { device } = browser.cookies;
  const headers = sessionCookieOf(browser);
  if (answer.kind === 'return-to') return withSetCookies(redirect(answer.path, headers), [device]);
  const { user, userId } = answer;
  const page =
    wantsHtml(event) && user
      ? htmlResponse(200, signedInPage(user), { headers })
      : jsonResponse(200, { user: { id: userId, email: user?.email, name: user?.name } }, { headers });
  return withSetCookies(page, [device]);
}
