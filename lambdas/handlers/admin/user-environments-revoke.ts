/** DELETE /api/admin/users/{user_id}/environments/{environment_id}: idempotent → 204. */
import { revokeEnvironment } from '../../core/admin/environments';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { getAdmin } from '../../wiring/admin';

export const handler = adminHandler(async (event) => {
  await revokeEnvironment(getAdmin(), pathParameter(event, 'user_id'), pathParameter(event, 'environment_id'));
  return noContent();
});
