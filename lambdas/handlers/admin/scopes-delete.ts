/** DELETE /api/admin/scopes/{name}: refused while built in or granted to a client (behaviour ADMIN-18) → 204. */
import * as z from 'zod/mini';
import { deleteScope } from '../../core/admin/scopes';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { adminActorOf } from '../../http/admin-caller';
import { scopeName } from '../../http/admin-schemas';
import { validate } from '../../http/validate';
import { adminHandler } from '../../wiring/admin-handler';
import { getAdminWithoutMail } from '../../wiring/admin';

const path = z.object({ name: scopeName });

export const handler = adminHandler(async (event, _container, caller) => {
  const { name } = validate(path, { name: pathParameter(event, 'name') });
  await deleteScope(getAdminWithoutMail(), adminActorOf(caller), name);
  return noContent();
});
