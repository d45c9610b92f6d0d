/**
 * POST /api/admin/clients: a static public or confidential client → 201 the client;
 * a confidential client's `client_secret` is in this response only, never again; one registered
 * with `jwks` or `jwks_uri` authenticates with private_key_jwt and gets no secret.
 */
import * as z from 'zod/mini';
import { createClient } from '../../core/admin/clients';
import { grantTypes } from '../../core/grants/grant-types';
import { jsonInput } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import {
  clientJwks,
  clientJwksUri,
  displayName,
  environmentId,
  refreshGraceSeconds,
  scopeName,
  signingAlgorithm,
} from '../../http/admin-schemas';
import { clientView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = z.strictObject({
  type: z.enum(['public', 'confidential']),
  name: displayName,
  environment_id: environmentId,
  scopes: z._default(z.array(scopeName).check(z.maxLength(100)), []),
  redirect_uris: z._default(z.array(z.string()).check(z.maxLength(20)), []),
  grant_types: z.optional(z.array(z.enum(grantTypes)).check(z.maxLength(grantTypes.length))),
  admin: z._default(z.boolean(), false),
  test: z._default(z.boolean(), false),
  introspect_all: z._default(z.boolean(), false),
  refresh_grace_seconds: z.optional(refreshGraceSeconds),
  require_pushed_authorization_requests: z._default(z.boolean(), false),
  // private_key_jwt (behaviour ADMIN-19): keys instead of a secret.
  jwks: z.optional(clientJwks),
  jwks_uri: z.optional(clientJwksUri),
  token_endpoint_auth_signing_alg: z.optional(signingAlgorithm),
  dpop_bound_access_tokens: z._default(z.boolean(), false),
});

export const handler = adminHandler(async (event, _container, caller) => {
  const body = jsonInput(event, schema);
  const { client, secret } = await createClient(getAdminWithoutMail(), adminActorOf(caller), {
    type: body.type,
    name: body.name,
    environmentId: body.environment_id,
    scopes: body.scopes,
    redirectUris: body.redirect_uris,
    ...(body.grant_types ? { grantTypes: body.grant_types } : {}),
    admin: body.admin,
    test: body.test,
    introspectAll: body.introspect_all,
    ...(typeof body.refresh_grace_seconds === 'number' ? { refreshGraceSeconds: body.refresh_grace_seconds } : {}),
    requirePushedAuthorizationRequests: body.require_pushed_authorization_requests,
    ...(body.jwks || body.jwks_uri || body.token_endpoint_auth_signing_alg
      ? { keys: { jwks: body.jwks, jwksUri: body.jwks_uri, signingAlg: body.token_endpoint_auth_signing_alg } }
      : {}),
    dpopBoundAccessTokens: body.dpop_bound_access_tokens,
  });
  return jsonResponse(201, { ...clientView(client), ...(secret ? { client_secret: secret } : {}) });
});
