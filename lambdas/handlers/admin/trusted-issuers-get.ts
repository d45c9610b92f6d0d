/** GET /api/admin/trusted-issuers/{trusted_issuer_id} */
import { getTrustedIssuer } from '../../core/admin/trusted-issuers';
import { pathParameter } from '../../http/admin-endpoint';
import { jsonResponse } from '../../http/response';
import { trustedIssuerView } from '../../presentation/admin-views';
import { getAdminWithoutMail } from '../../wiring/admin';
import { adminHandler } from '../../wiring/admin-handler';

export const handler = adminHandler(async (event) =>
  jsonResponse(200, trustedIssuerView(await getTrustedIssuer(getAdminWithoutMail(), pathParameter(event, 'trusted_issuer_id')))),
);
