/** DELETE /api/admin/trusted-issuers/{trusted_issuer_id} → 204 (behaviour TRUST-8). */
import { deleteTrustedIssuer } from '../../core/admin/trusted-issuers';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { adminActorOf } from '../../http/admin-caller';
import { getAdminWithoutMail } from '../../wiring/admin';
import { adminHandler } from '../../wiring/admin-handler';

export const handler = adminHandler(async (event, _container, caller) => {
  await deleteTrustedIssuer(getAdminWithoutMail(), adminActorOf(caller), pathParameter(event, 'trusted_issuer_id'));
  return noContent();
});
