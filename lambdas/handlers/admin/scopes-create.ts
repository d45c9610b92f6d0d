/** POST /api/admin/scopes: `{ name, description?, discoverable? }` → 201 the scope. */
import * as z from 'zod/mini';
import { createScope } from '../../core/admin/scopes';
import { jsonInput } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import { scopeName } from '../../http/admin-schemas';
import { scopeView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = z.strictObject({
  name: scopeName,
  description: z._default(z.string().check(z.trim(), z.maxLength(500)), ''),
  /** Listed in discovery `scopes_supported`. */
  // Opt-in: a discoverable scope is advertised and offered to self-registered clients.
  discoverable: z._default(z.boolean(), false),
});

export const handler = adminHandler(async (event, _container, caller) => {
  const input = jsonInput(event, schema);
  const scope = await createScope(getAdminWithoutMail(), adminActorOf(caller), input);
  return jsonResponse(201, scopeView(scope));
});
