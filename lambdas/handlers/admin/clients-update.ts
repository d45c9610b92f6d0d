/**
 * PATCH /api/admin/clients/{client_id}: `{ name?, scopes?, introspect_all?, redirect_uris?, jwks?,
 * jwks_uri?, refresh_grace_seconds?, require_pushed_authorization_requests?,
 * dpop_bound_access_tokens? }` → 200 the client.
 * `scopes` replaces the granted set; ungranted scopes are then removed from the client's API
 * keys. `redirect_uris` replaces a static client's set.
 */
import * as z from 'zod/mini';
import { updateClient } from '../../core/admin/clients';
import { jsonInput, pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import { clientJwks, clientJwksUri, displayName, refreshGraceSeconds, scopeName } from '../../http/admin-schemas';
import { clientView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = z
  .strictObject({
    name: z.optional(displayName),
    scopes: z.optional(z.array(scopeName).check(z.maxLength(100))),
    introspect_all: z.optional(z.boolean()),
    redirect_uris: z.optional(z.array(z.string().check(z.maxLength(2000))).check(z.maxLength(20))),
    refresh_grace_seconds: z.optional(refreshGraceSeconds),
    require_pushed_authorization_requests: z.optional(z.boolean()),
    // Key rotation of a private_key_jwt client (behaviour ADMIN-19).
    jwks: z.optional(clientJwks),
    jwks_uri: z.optional(clientJwksUri),
    dpop_bound_access_tokens: z.optional(z.boolean()),
  })
  .check(
    z.refine(
      (body) => Object.values(body).some((value) => value !== undefined),
      'the body must set name, scopes, introspect_all, redirect_uris, jwks, jwks_uri, refresh_grace_seconds, require_pushed_authorization_requests or dpop_bound_access_tokens',
    ),
  );

export const handler = adminHandler(async (event, _container, caller) => {
  const clientId = pathParameter(event, 'client_id');
  const body = jsonInput(event, schema);
  const {
    introspect_all: introspectAll,
    redirect_uris: redirectUris,
    jwks,
    jwks_uri: jwksUri,
    refresh_grace_seconds: refreshGrace,
    require_pushed_authorization_requests: requirePushedAuthorizationRequests,
    dpop_bound_access_tokens: dpopBound,
    ...changes
  } = body;
  const client = await updateClient(getAdminWithoutMail(), adminActorOf(caller), {
    clientId,
    ...changes,
    ...(introspectAll !== undefined ? { introspectAll } : {}),
    ...(redirectUris !== undefined ? { redirectUris } : {}),
    ...(refreshGrace !== undefined ? { refreshGraceSeconds: refreshGrace } : {}),
    ...(requirePushedAuthorizationRequests !== undefined ? { requirePushedAuthorizationRequests } : {}),
    ...(jwks !== undefined || jwksUri !== undefined ? { keys: { jwks, jwksUri } } : {}),
    ...(dpopBound !== undefined ? { dpopBoundAccessTokens: dpopBound } : {}),
  });
  return jsonResponse(200, clientView(client));
});
