/** GET /api/admin/users?limit&cursor */
import { listUsers } from '../../core/admin/users';
import { pageRequest } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { pageView, userView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event) => {
  const { limit, cursor } = pageRequest(event);
  return jsonResponse(200, pageView(await listUsers(getAdminWithoutMail(), limit, cursor), userView));
});
