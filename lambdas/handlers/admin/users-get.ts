/** GET /api/admin/users/{user_id} */
import { getUser } from '../../core/admin/users';
import { pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { userView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event) =>
  jsonResponse(200, userView(await getUser(getAdminWithoutMail(), pathParameter(event, 'user_id')))),
);
