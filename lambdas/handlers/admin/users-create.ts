/** POST /api/admin/users: `{ name, email?, password?, admin?, test? }` → 201 the user. */
import * as z from 'zod/mini';
import { createUser } from '../../core/admin/users';
import { jsonInput } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import { displayName, emailAddress, password } from '../../http/admin-schemas';
import { userView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = z.strictObject({
  name: displayName,
  email: z.optional(emailAddress),
  password: z.optional(password),
  admin: z._default(z.boolean(), false),
  test: z._default(z.boolean(), false),
});

export const handler = adminHandler(async (event, _container, caller) => {
  const input = jsonInput(event, schema);
  const user = await createUser(getAdminWithoutMail(), adminActorOf(caller), input);
  return jsonResponse(201, userView(user));
});
