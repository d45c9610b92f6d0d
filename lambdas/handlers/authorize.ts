/**
 * GET /api/authorize (behaviour AUTHZ-1..AUTHZ-7, OAuth 2.1 4.1.1): validates the request in two phases
 * (client and redirect URI first, shown as a page; the rest redirected with its error),
 * then continues with the signed-in user, or stores the request and shows the sign-in form, or,
 * for a session without the second factor the MFA policy now asks for, the page asking for the
 * code (behaviour AUTHZ-12).
 */
import {
  echoableState,
  resolveRedirectUri,
  validateAuthorizationRequest,
  type AuthorizationRequest,
  type PendingAuthorization,
} from '../core/authorization-request';
import { LoginRequiredError, OAuthError } from '../core/errors';
import { lifetimes } from '../core/lifetimes';
import { newSecret } from '../core/ids';
import { decideAuthorization, mustSignInAgain, newRequestId } from '../core/authorization-decision';
import { decisionResponse, redirectError } from '../presentation/authorize-flow';
import { httpHandler } from '../wiring/handler';
import { formTarget, htmlResponse } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { queryParameters } from '../http/query';
import { currentSession, lacksSecondFactor, signedInUserOf } from '../http/session';
import { stepUpResponse } from '../presentation/step-up';
import { labelClient } from '../http/request-context';
import { signInPage } from '../presentation/views/sign-in';
import { endpointPaths } from '../core/paths';
import { findClient, getSessionReaders, getSessions } from '../wiring/repositories';
import { getStorage } from '../wiring/storage';
import { withCatalogScopes } from '../core/scope';
import { getAuthorizationDependencies } from '../wiring/authorize';
import { getBrand, getSite } from '../wiring/site';

/** Strongly consistent, as at sign-in (behaviour SITE-2): a tightened policy counts at the very next authorization. */
const mfaPolicyInForce = async () => (await getSite().current()).mfaPolicy;

/** Longer ids cannot be ours (metadata document URLs stop at 2000); they are not looked up (DynamoDB caps key size). */
const plausibleClientId = /^[\x21-\x7e]{1,2000}$/;

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    const params = queryParameters(event);
    const clientId = params.values.client_id;
    const found = clientId && plausibleClientId.test(clientId) ? await findClient(clientId) : undefined;
    // A scope deleted from the catalog is asked for no one, whatever the client record lists (behaviour ADMIN-18).
    const client = found && (await withCatalogScopes(found, getStorage().catalogNames));
    if (client) labelClient(client.clientId);
    // Phase one throws: withErrorPages shows it, never redirecting (RFC 6749 4.1.2.1).
    const redirectUri = resolveRedirectUri(client, params);

    let request: AuthorizationRequest;
    try {
      request = validateAuthorizationRequest(client!, redirectUri, params);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      // Anyone can register a dynamic client with a redirect URI of their choosing, so an
      // error redirect with no user interaction would make this server an open redirector
      // (RFC 9700 4.11.2): show the error page instead.
      if (client!.registrationType === 'dynamic') throw error;
      return redirectError(container, { redirectUri, state: echoableState(params), clientId }, error);
    }

    const current = await currentSession(event, container, getSessionReaders());
    const nowEpoch = Math.floor(container.clock.now() / 1000);
    const usable = current && !mustSignInAgain(request.prompt, current.session.authTime, nowEpoch) ? current : undefined;
    // Behaviour AUTHZ-12, MFA-9: a session without the second factor the policy now asks for is not used as it is.
    const stepUp = usable ? await lacksSecondFactor(usable, mfaPolicyInForce) : false;
    if (usable && !stepUp) {
      const user = signedInUserOf(usable.session);
      const decision = await decideAuthorization(getAuthorizationDependencies(), { client: client!, request, user, interactive: false });
      return decisionResponse(container, decision, { brand: getBrand });
    }
    if (request.prompt?.none) {
      // OIDC Core 3.1.2.6: no page may be shown. A dynamic client's redirect URI is not
      // trusted before the user saw it (RFC 9700 4.11.2), so its error is a page too.
      const error = stepUp
        ? new LoginRequiredError(
            'The user must confirm this sign-in with a second factor.',
            'session without the second factor the MFA policy asks for',
          )
        : new LoginRequiredError('The user is not signed in.', current ? 'session older than max_age' : 'no session');
      if (client!.registrationType === 'dynamic') throw error;
      return redirectError(container, request, error);
    }
    const requestId = newRequestId(container.random);
    const expiresAtEpoch = Math.floor(container.clock.now() / 1000) + lifetimes.authorizationRequest;
    const pending: PendingAuthorization = { ...request, expiresAtEpoch };
    await getSessions().saveAuthorizationRequest(requestId, pending, expiresAtEpoch);
    const clientName = client!.registrationType === 'static' ? client!.name : undefined;
    if (usable && stepUp) {
      // Asks for the code with a button: a GET never mails one (behaviour MFA-10).
      return stepUpResponse(container, usable.user, {
        hidden: { request_id: requestId },
        clientName,
        redirectUri,
        brand: await getBrand(),
      });
    }
    const view = {
      action: endpointPaths.authorize,
      hidden: { request_id: requestId },
      clientName,
      passkeyNonce: newSecret(container.random),
    };
    return htmlResponse(200, signInPage(view), {
      formTargets: [formTarget(redirectUri)],
      scriptNonce: view.passkeyNonce,
      brand: await getBrand(),
    });
  }),
);
