/** PATCH /api/admin/users/{user_id}: any of `{ name, email, password, admin, test }` → 200 the user. */
import * as z from 'zod/mini';
import { updateUser } from '../../core/admin/users';
import { jsonInput, pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import { displayName, emailAddress, password } from '../../http/admin-schemas';
import { userView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdmin } from '../../wiring/admin';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = z
  .strictObject({
    name: z.optional(displayName),
    email: z.optional(emailAddress),
    password: z.optional(password),
    admin: z.optional(z.boolean()),
    test: z.optional(z.boolean()),
  })
  .check(z.refine((body) => Object.keys(body).length > 0, 'the body must set at least one of name, email, password, admin, test'));

export const handler = adminHandler(async (event, _container, caller) => {
  const userId = pathParameter(event, 'user_id');
  const changes = jsonInput(event, schema);
  // Audited with the change, by the changed field names only: never the new password.
  const user = await updateUser(getAdmin(), adminActorOf(caller), { userId, ...changes });
  return jsonResponse(200, userView(user));
});
