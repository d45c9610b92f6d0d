/** POST /api/admin/environments: `{ name, id? }` → 201 the environment. */
import * as z from 'zod/mini';
import { createEnvironment } from '../../core/admin/environments';
import { jsonInput } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import { displayName, environmentId } from '../../http/admin-schemas';
import { environmentView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = z.strictObject({ name: displayName, id: z.optional(environmentId) });

export const handler = adminHandler(async (event, container, caller) => {
  const input = jsonInput(event, schema);
  const environment = await createEnvironment(getAdminWithoutMail(), adminActorOf(caller), input);
  return jsonResponse(201, environmentView(environment, container.config.dcr.environmentId));
});
