/**
 * POST /api/par (RFC 9126, behaviour AUTHZ-14..AUTHZ-16): a pushed authorization request. The client
 * authenticates as at the token endpoint (any method of lambdas/core/client-auth; a public client
 * with its client_id, RFC 9126 2); the parameters are validated as GET /api/authorize would and
 * stored under a fresh request_uri, answered 201 `{ request_uri, expires_in }` (2.2).
 */
import { endpointPaths } from '../core/paths';
import { pushAuthorizationRequest } from '../core/pushed-authorization';
import { withCatalogScopes } from '../core/scope';
import { parseBody, type FormFields } from '../http/body';
import { authenticateRequestClient } from '../http/client-authentication';
import { credentialFieldNames, pushedRequestParams } from '../http/pushed-request-params';
import { jsonResponse } from '../http/response';
import { validate } from '../http/validate';
import { getClientAuthDependencies } from '../wiring/client-auth';
import { httpHandler } from '../wiring/handler';
import { getPushDependencies } from '../wiring/pushed-requests';
import { getStorage } from '../wiring/storage';

export const handler = httpHandler(
  async (event) => {
    const form = parseBody(event, ['form']) as FormFields;
    validate(pushedRequestParams, form);
    const authenticated = await authenticateRequestClient(event, form, getClientAuthDependencies(endpointPaths.pushedAuthorizationRequest));
    // A scope deleted from the catalog is asked for no one, whatever the client record lists (behaviour ADMIN-18).
    const client = await withCatalogScopes(authenticated.client, getStorage().catalogNames);
    const pushed = await pushAuthorizationRequest(getPushDependencies(), client, form, credentialFieldNames);
    return jsonResponse(201, { request_uri: pushed.requestUri, expires_in: pushed.expiresIn });
  },
  { crossOrigin: true }, // route row flag crossOrigin (behaviour HTTP-6)
);
