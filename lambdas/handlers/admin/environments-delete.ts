/** DELETE /api/admin/environments/{environment_id}: also removes its grants → 204. */
import { deleteEnvironment } from '../../core/admin/environments';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { recordAdminChange } from '../../wiring/audit';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event, _container, caller) => {
  const environmentId = pathParameter(event, 'environment_id');
  await deleteEnvironment(getAdminWithoutMail(), environmentId);
  await recordAdminChange(caller, { type: 'environment.delete', environmentId });
  return noContent();
});
