/** DELETE /api/admin/environments/{environment_id}: also removes its grants → 204. */
import { deleteEnvironment } from '../../core/admin/environments';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { getAdmin } from '../../wiring/admin';

export const handler = adminHandler(async (event) => {
  await deleteEnvironment(getAdmin(), pathParameter(event, 'environment_id'));
  return noContent();
});
