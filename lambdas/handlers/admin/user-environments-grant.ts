/** PUT /api/admin/users/{user_id}/environments/{environment_id}: idempotent → 200 the grant. */
import { grantEnvironment } from '../../core/admin/environments';
import { pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event, _container, caller) => {
  const grant = await grantEnvironment(getAdminWithoutMail(), adminActorOf(caller), {
    userId: pathParameter(event, 'user_id'),
    environmentId: pathParameter(event, 'environment_id'),
  });
  return jsonResponse(200, { user_id: grant.userId, environment_id: grant.environmentId, granted_at: grant.grantedAt });
});
