/** DELETE /api/admin/users/{user_id}: also ends their sessions and refresh tokens → 204. */
import { deleteUser } from '../../core/admin/users';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event, _container, caller) => {
  const userId = pathParameter(event, 'user_id');
  await deleteUser(getAdminWithoutMail(), adminActorOf(caller), userId);
  return noContent();
});
