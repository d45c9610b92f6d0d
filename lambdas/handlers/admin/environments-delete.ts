/** DELETE /api/admin/environments/{environment_id}: also removes its grants → 204. */
import { deleteEnvironment } from '../../core/admin/environments';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { adminActorOf } from '../../http/admin-caller';
import { adminHandler } from '../../wiring/admin-handler';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event, _container, caller) => {
  await deleteEnvironment(getAdminWithoutMail(), adminActorOf(caller), pathParameter(event, 'environment_id'));
  return noContent();
});
