/** DELETE /api/admin/users/{user_id}/environments/{environment_id}: idempotent → 204. */
import { revokeEnvironment } from '../../core/admin/environments';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event, _container, caller) => {
  await revokeEnvironment(getAdminWithoutMail(), adminActorOf(caller), {
    userId: pathParameter(event, 'user_id'),
    environmentId: pathParameter(event, 'environment_id'),
  });
  return noContent();
});
