/**
 * DELETE /api/admin/users/{user_id}/passkeys/{credential_id}: removes one passkey and mails the
 * user, as their own removal does → 204; 404 when the user has no such passkey (issue 13, behaviour PASSKEY-8).
 */
import { removePasskey } from '../../core/account/passkeys';
import { getUser } from '../../core/admin/users';
import { NotFoundError } from '../../core/errors';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { getAdmin } from '../../wiring/admin';
import { adminHandler } from '../../wiring/admin-handler';
import { recordAdminChange } from '../../wiring/audit';
import { getPasskeys } from '../../wiring/passkeys';

export const handler = adminHandler(async (event, _container, caller) => {
  const user = await getUser(getAdmin(), pathParameter(event, 'user_id'));
  const credentialId = pathParameter(event, 'credential_id');
  if (!(await removePasskey(getPasskeys(), user, credentialId))) throw new NotFoundError('The user has no such passkey.');
  await recordAdminChange(caller, { type: 'user.passkey_remove', userId: user.id });
  return noContent();
});
