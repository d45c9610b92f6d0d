/**
 * GET /api/authorize (behaviour AUTHZ-1..AUTHZ-7, OAuth 2.1 4.1.1): validates the request in two phases
 * (client and redirect URI first, shown as a page; the rest redirected with its error),
 * then continues with the signed-in user, or stores the request and shows the sign-in form, or,
 * for a session without the second factor the MFA policy now asks for, the page asking for the
 * code (behaviour AUTHZ-12). With `request_uri`, the parameters pushed to POST /api/par stand in for
 * the query's (RFC 9126 4, behaviour AUTHZ-17); a client or server that requires pushing refuses
 * the rest (AUTHZ-18).
 */
import { echoableState, resolveRedirectUri, validateAuthorizationRequest, type AuthorizationRequest } from '../core/authorization-request';
import { startAuthorization } from '../core/authorization-start';
import { OAuthError } from '../core/errors';
import { assertPushedWhenRequired, pushedRequestParameters } from '../core/pushed-authorization';
import { newSecret } from '../core/ids';
import { decisionResponse, redirectError } from '../presentation/authorize-flow';
import { httpHandler } from '../wiring/handler';
import { formTarget, htmlResponse } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { queryParameters } from '../http/query';
import { currentSession, signedInUserOf } from '../http/session';
import { stepUpResponse } from '../presentation/step-up';
import { labelClient } from '../http/request-context';
import { signInPage } from '../presentation/views/sign-in';
import { endpointPaths } from '../core/paths';
import { findClient, getSessionReaders } from '../wiring/repositories';
import { getStorage } from '../wiring/storage';
import { withCatalogScopes } from '../core/scope';
import { getInteractionDependencies } from '../wiring/authorize';
import { getBrand } from '../wiring/site';
import { getPushedRequests } from '../wiring/pushed-requests';

/** Longer ids cannot be ours (metadata document URLs stop at 2000); they are not looked up (DynamoDB caps key size). */
const plausibleClientId = /^[\x21-\x7e]{1,2000}$/;

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    const query = queryParameters(event);
    const clientId = query.values.client_id;
    const found = clientId && plausibleClientId.test(clientId) ? await findClient(clientId) : undefined;
    // A scope deleted from the catalog is asked for no one, whatever the client record lists (behaviour ADMIN-18).
    const client = found && (await withCatalogScopes(found, getStorage().catalogNames));
    if (client) labelClient(client.clientId);
    // Behaviour AUTHZ-17: a request_uri stands for the parameters pushed before, claimed once.
    const pushed = query.values.request_uri !== undefined;
    const params = pushed
      ? await pushedRequestParameters(getPushedRequests(), client, query, Math.floor(container.clock.now() / 1000))
      : query;
    // Phase one throws: withErrorPages shows it, never redirecting (RFC 6749 4.1.2.1).
    const redirectUri = resolveRedirectUri(client, params);

    let request: AuthorizationRequest;
    try {
      assertPushedWhenRequired(client!, pushed, container.config.requirePushedAuthorizationRequests);
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
    const session = current && { user: current.user, signedIn: signedInUserOf(current.session) };
    const start = await startAuthorization(getInteractionDependencies(), client!, request, session);
    if (start.kind === 'decided') return decisionResponse(container, start.decision, { brand: getBrand });
    const clientName = client!.registrationType === 'static' ? client!.name : undefined;
    const hidden = { request_id: start.requestId };
    if (start.kind === 'step-up')
      return stepUpResponse(container, start.user, { hidden, clientName, redirectUri, brand: await getBrand() });
    const view = {
      action: endpointPaths.authorize,
      hidden,
      // Behaviour AUTHZ-20: every client is named; a self-registered one marked as such.
      client: { name: client!.name, selfRegistered: client!.registrationType === 'dynamic' },
      passkeyNonce: newSecret(container.random),
    };
    return htmlResponse(200, signInPage(view), {
      formTargets: [formTarget(redirectUri)],
      scriptNonce: view.passkeyNonce,
      brand: await getBrand(),
    });
  }),
);
