/**
 * POST /api/par (RFC 9126, behaviour AUTHZ-14..AUTHZ-16): a pushed authorization request. The client
 * authenticates as at the token endpoint (any method of lambdas/core/client-auth; a public client
 * with its client_id, RFC 9126 2); the parameters are validated as GET /api/authorize would and
 * stored under a fresh request_uri, answered 201 `{ request_uri, expires_in }` (2.2).
 */
import { InvalidDpopProofError } from '../core/errors';
import { endpointPaths } from '../core/paths';
import { pushAuthorizationRequest } from '../core/pushed-authorization';
import { withCatalogScopes } from '../core/scope';
import { parseBody, type FormFields } from '../http/body';
import { authenticateRequestClient } from '../http/client-authentication';
import { provenKeyOf } from '../http/dpop';
import { credentialFieldNames, pushedRequestParams } from '../http/pushed-request-params';
import { jsonResponse } from '../http/response';
import { validate } from '../http/validate';
import { getClientAuthDependencies } from '../wiring/client-auth';
import { getContainer } from '../wiring/container';
import { getDpopDependencies } from '../wiring/dpop';
import { httpHandler } from '../wiring/handler';
import { getPushDependencies } from '../wiring/pushed-requests';
import { getStorage } from '../wiring/storage';

/**
 * RFC 9449 10.1, behaviour AUTHZ-19: a DPoP proof sent with the push binds the code to its key, as
 * `dpop_jkt` would; both given, they must name the same key. Checked after client authentication,
 * so an unknown caller's proof uses up no jti; no server nonce here (that is the token endpoint's).
 */
async function withProvenKey(event: Parameters<typeof provenKeyOf>[0], form: FormFields): Promise<FormFields> {
  const proven = await provenKeyOf(event, getContainer().config.baseUrl, getDpopDependencies());
  if (!proven) return form;
  if (form.dpop_jkt !== undefined && form.dpop_jkt !== proven.jkt) {
    throw new InvalidDpopProofError('dpop_jkt does not name the key of the DPoP proof.', 'PAR dpop_jkt differs from the proof key');
  }
  // A null prototype, as parseBody makes it: a pushed field named like an object's own stays a plain field.
  return Object.assign(Object.create(null) as FormFields, form, { dpop_jkt: proven.jkt });
}

export const handler = httpHandler(
  async (event) => {
    const form = parseBody(event, ['form']) as FormFields;
    validate(pushedRequestParams, form);
    const authenticated = await authenticateRequestClient(event, form, getClientAuthDependencies(endpointPaths.pushedAuthorizationRequest));
    // A scope deleted from the catalog is asked for no one, whatever the client record lists (behaviour ADMIN-18).
    const client = await withCatalogScopes(authenticated.client, getStorage().catalogNames);
    const pushed = await pushAuthorizationRequest(getPushDependencies(), client, await withProvenKey(event, form), credentialFieldNames);
    return jsonResponse(201, { request_uri: pushed.requestUri, expires_in: pushed.expiresIn });
  },
  { crossOrigin: true }, // route row flag crossOrigin (behaviour HTTP-6)
);
