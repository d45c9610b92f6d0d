/**
 * PATCH /api/admin/clients/{client_id}: `{ name?, scopes?, introspect_all?, redirect_uris?, dpop_bound_access_tokens? }` → 200 the
 * client. `scopes` replaces the granted set; ungranted scopes are then removed from the client's API
 * keys. `redirect_uris` replaces a static client's set.
 */
import * as z from 'zod/mini';
import { updateClient } from '../../core/admin/clients';
import { jsonInput, pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import { displayName, scopeName } from '../../http/admin-schemas';
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
    dpop_bound_access_tokens: z.optional(z.boolean()),
  })
  .check(
    z.refine(
      (body) => Object.values(body).some((value) => value !== undefined),
      'the body must set name, scopes, introspect_all, redirect_uris or dpop_bound_access_tokens',
    ),
  );

export const handler = adminHandler(async (event, _container, caller) => {
  const clientId = pathParameter(event, 'client_id');
  const body = jsonInput(event, schema);
  const { introspect_all: introspectAll, redirect_uris: redirectUris, dpop_bound_access_tokens: dpopBound, ...changes } = body;
  const client = await updateClient(getAdminWithoutMail(), adminActorOf(caller), {
    clientId,
    ...changes,
    ...(introspectAll !== undefined ? { introspectAll } : {}),
    ...(redirectUris !== undefined ? { redirectUris } : {}),
    ...(dpopBound !== undefined ? { dpopBoundAccessTokens: dpopBound } : {}),
  });
  return jsonResponse(200, clientView(client));
});
