/** PATCH /api/admin/trusted-issuers/{trusted_issuer_id} → 200 the trusted issuer (behaviour TRUST-7). */
import { updateTrustedIssuer } from '../../core/admin/trusted-issuers';
import { jsonInput, pathParameter } from '../../http/admin-endpoint';
import { adminActorOf } from '../../http/admin-caller';
import { jsonResponse } from '../../http/response';
import { trustedIssuerSettingsOf, updateTrustedIssuerBody } from '../../http/trusted-issuer-schemas';
import { trustedIssuerView } from '../../presentation/admin-views';
import { getAdminWithoutMail } from '../../wiring/admin';
import { adminHandler } from '../../wiring/admin-handler';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = updateTrustedIssuerBody;

export const handler = adminHandler(async (event, _container, caller) => {
  const id = pathParameter(event, 'trusted_issuer_id');
  const changes = trustedIssuerSettingsOf(jsonInput(event, schema));
  return jsonResponse(200, trustedIssuerView(await updateTrustedIssuer(getAdminWithoutMail(), adminActorOf(caller), id, changes)));
});
