/** GET /api/admin/environments?limit&cursor */
import { listEnvironments } from '../../core/admin/environments';
import { pageRequest } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { environmentView, pageView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event, container) => {
  const { limit, cursor } = pageRequest(event);
  const page = await listEnvironments(getAdminWithoutMail(), limit, cursor);
  return jsonResponse(
    200,
    pageView(page, (e) => environmentView(e, container.config.dcr.environmentId)),
  );
});
