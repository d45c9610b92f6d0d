/**
 * DELETE /api/admin/users/{user_id}/passkeys/{credential_id}: removes one passkey and mails the
 * user, as their own removal does → 204; 404 when the user has no such passkey (behaviour PASSKEY-8).
 */
import { removeUserPasskey } from '../../core/admin/user-credentials';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { adminActorOf } from '../../http/admin-caller';
import { getAdmin } from '../../wiring/admin';
import { adminHandler } from '../../wiring/admin-handler';
import { getPasskeys } from '../../wiring/passkeys';

export const handler = adminHandler(async (event, _container, caller) => {
  await removeUserPasskey({ ...getAdmin(), passkeyRemoval: getPasskeys() }, adminActorOf(caller), {
    userId: pathParameter(event, 'user_id'),
    credentialId: pathParameter(event, 'credential_id'),
  });
  return noContent();
});
