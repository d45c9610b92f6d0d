/**
 * The sign-in doors that may continue a stored authorization (lambdas/core/sign-in/resume.ts):
 * where the form says the sign-in goes, and the response to a resumed authorization (consent, or
 * the redirect with its code) with the new session's cookies. Apart from sign-in.ts so that the
 * sign-in page's own door does not bundle the consent page.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { openAuthorization, unregisteredClient } from '../core/authorization-decision';
import type { Container } from '../http/container';
import { safeReturnTo } from '../core/sign-in';
import type { Destination, SignInAnswer } from '../core/sign-in/continuation';
import type { ResumeDependencies } from '../core/sign-in/resume';
import { withSetCookies } from '../http/device-cookie';
import { labelClient } from '../http/request-context';
import { decisionResponse } from './authorize-flow';
import { sessionCookieOf, signInResponse, type AnswerPages, type RequestBrowser } from './sign-in';

/**
 * Where the form says the sign-in goes: on with its authorization (read before anything is spent
 * on it, and gone means expired), else back to its `return_to` (behaviour SIGNIN-6). `lookUpClient`
 * where the page needs the client's name before the factor is checked.
 */
export async function destinationOf(
  deps: ResumeDependencies,
  form: { readonly request_id?: string; readonly return_to?: string },
  lookUpClient = false,
): Promise<Destination> {
  const request = await openAuthorization(deps.authorization, form.request_id);
  if (!request || !form.request_id) return { kind: 'page', returnTo: safeReturnTo(form.return_to) };
  labelClient(request.clientId);
  const client = lookUpClient ? await deps.findClient(request.clientId) : undefined;
  if (lookUpClient && !client) throw unregisteredClient(request.clientId);
  return { kind: 'authorization', requestId: form.request_id, request, ...(client ? { client } : {}) };
}

/** The response to the answer of a door that may resume an authorization; `pages` as in signInResponse. */
export async function authorizingSignInResponse(
  event: APIGatewayProxyEvent,
  container: Container,
  answer: SignInAnswer,
  browser: RequestBrowser,
  pages: AnswerPages,
): Promise<APIGatewayProxyResult> {
  if (answer.kind !== 'resume-authorization') return signInResponse(event, container, answer, browser, pages);
  const resumed = await decisionResponse(container, answer.decision, { headers: sessionCookieOf(browser), brand: browser.brand });
  return withSetCookies(resumed, [browser.cookies.device]);
}
