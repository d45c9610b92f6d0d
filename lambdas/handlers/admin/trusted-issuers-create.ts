/** POST /api/admin/trusted-issuers → 201 the trusted issuer (behaviour TRUST-1..TRUST-6). */
import { createTrustedIssuer } from '../../core/admin/trusted-issuers';
import { jsonInput } from '../../http/admin-endpoint';
import { adminActorOf } from '../../http/admin-caller';
import { jsonResponse } from '../../http/response';
import { createTrustedIssuerBody, trustedIssuerSettingsOf } from '../../http/trusted-issuer-schemas';
import { trustedIssuerView } from '../../presentation/admin-views';
import { getAdminWithoutMail } from '../../wiring/admin';
import { adminHandler } from '../../wiring/admin-handler';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = createTrustedIssuerBody;

export const handler = adminHandler(async (event, _container, caller) => {
  const { issuer, profile, environment_id: environmentId, ...settings } = jsonInput(event, schema);
  const trusted = await createTrustedIssuer(getAdminWithoutMail(), adminActorOf(caller), {
    issuer,
    profile,
    environmentId,
    ...trustedIssuerSettingsOf(settings),
  });
  return jsonResponse(201, trustedIssuerView(trusted));
});
