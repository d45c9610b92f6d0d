/**
 * GET /api/authorize once the request is valid (behaviour AUTHZ-7, AUTHZ-10, AUTHZ-12): a live
 * session that may be used as it is decides the authorization at once; otherwise the request is
 * stored (AUTHZ-7) for the sign-in page or, for a session that lacks the second factor the MFA
 * policy now asks for, the step-up page. prompt=none allows neither page (OIDC Core 3.1.2.6).
 */
import { lacksRequiredFactor } from './account/second-factor';
import type { ConsentDependencies } from './authorization-consent';
import { decideAuthorization, mustSignInAgain, newRequestId, refusal, type AuthorizationDecision } from './authorization-decision';
import type { AuthorizationRequest, PendingAuthorization } from './authorization-request';
import { LoginRequiredError } from './errors';
import { lifetimes } from './lifetimes';
import type { Client, User } from './model';
import type { LiveSession } from './sign-in/continuation';

export type AuthorizationStart =
  | { readonly kind: 'decided'; readonly decision: AuthorizationDecision }
  /** The request is stored as `requestId`: the sign-in page. */
  | { readonly kind: 'sign-in'; readonly requestId: string }
  /** The request is stored as `requestId`: the page asking `user` for the code (a GET never mails one, behaviour MFA-10). */
  | { readonly kind: 'step-up'; readonly requestId: string; readonly user: User };

/** Throws the errors that must be a page (a dynamic client's redirect URI is not trusted yet, RFC 9700 4.11.2). */
export async function startAuthorization(
  deps: Pick<ConsentDependencies, 'authorization' | 'mfaPolicy'>,
  client: Client,
  request: AuthorizationRequest,
  session: LiveSession | undefined,
): Promise<AuthorizationStart> {
  const { authorization } = deps;
  const nowEpoch = Math.floor(authorization.clock.now() / 1000);
  const usable = session && !mustSignInAgain(request.prompt, session.signedIn.authTime, nowEpoch) ? session : undefined;
  // Behaviour AUTHZ-12, MFA-9: a session without the second factor the policy now asks for is not used as it is.
  const stepUp = usable ? await lacksRequiredFactor(usable.user, usable.signedIn.amr, deps.mfaPolicy) : false;
  if (usable && !stepUp) {
    return {
      kind: 'decided',
      decision: await decideAuthorization(authorization, { client, request, user: usable.signedIn, interactive: false }),
    };
  }
  if (request.prompt?.none) {
    const error = stepUp
      ? new LoginRequiredError(
          'The user must confirm this sign-in with a second factor.',
          'session without the second factor the MFA policy asks for',
        )
      : new LoginRequiredError('The user is not signed in.', session ? 'session older than max_age' : 'no session');
    if (client.registrationType === 'dynamic') throw error;
    return { kind: 'decided', decision: refusal(authorization, request, error) };
  }
  const requestId = newRequestId(authorization.random);
  const expiresAtEpoch = Math.floor(authorization.clock.now() / 1000) + lifetimes.authorizationRequest;
  const pending: PendingAuthorization = { ...request, expiresAtEpoch };
  await authorization.sessions.saveAuthorizationRequest(requestId, pending, expiresAtEpoch);
  return usable && stepUp ? { kind: 'step-up', requestId, user: usable.user } : { kind: 'sign-in', requestId };
}
