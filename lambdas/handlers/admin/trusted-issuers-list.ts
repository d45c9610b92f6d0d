/** GET /api/admin/trusted-issuers?limit&cursor: newest first. */
import { listTrustedIssuers } from '../../core/admin/trusted-issuers';
import { pageRequest } from '../../http/admin-endpoint';
import { jsonResponse } from '../../http/response';
import { pageView, trustedIssuerView } from '../../presentation/admin-views';
import { getAdminWithoutMail } from '../../wiring/admin';
import { adminHandler } from '../../wiring/admin-handler';

export const handler = adminHandler(async (event) => {
  const { limit, cursor } = pageRequest(event);
  return jsonResponse(200, pageView(await listTrustedIssuers(getAdminWithoutMail(), limit, cursor), trustedIssuerView));
});
