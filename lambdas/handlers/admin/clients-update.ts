/**
 * PATCH /api/admin/clients/{client_id}: `{ name?, scopes?, introspect_all? }` → 200 the client. `scopes`
 * replaces the granted set; ungranted scopes are then removed from the client's API keys.
 */
import * as z from 'zod/mini';
import { updateClient } from '../../core/admin/clients';
import { jsonInput, pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { displayName, scopeName } from '../../http/admin-schemas';
import { clientView } from '../../http/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdmin } from '../../wiring/admin';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = z
  .strictObject({
    name: z.optional(displayName),
    scopes: z.optional(z.array(scopeName).check(z.maxLength(100))),
    introspect_all: z.optional(z.boolean()),
  })
  .check(
    z.refine(
      (body) => body.name !== undefined || body.scopes !== undefined || body.introspect_all !== undefined,
      'the body must set name, scopes or introspect_all',
    ),
  );

export const handler = adminHandler(async (event) => {
  const clientId = pathParameter(event, 'client_id');
  const { introspect_all: introspectAll, ...changes } = jsonInput(event, schema);
  return jsonResponse(
    200,
    clientView(await updateClient(getAdmin(), clientId, { ...changes, ...(introspectAll !== undefined ? { introspectAll } : {}) })),
  );
});
