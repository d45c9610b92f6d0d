/** GET /api/admin/users/{user_id}/environments: the environments granted to the user. */
import { listUserEnvironments } from '../../core/admin/environments';
import { pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { environmentView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event, container) => {
  const granted = await listUserEnvironments(getAdminWithoutMail(), pathParameter(event, 'user_id'));
  const dcr = container.config.dcr.environmentId;
  return jsonResponse(200, { items: granted.map((g) => ({ ...environmentView(g.environment, dcr), granted_at: g.grantedAt })) });
});
