/** GET /api/admin/users/{user_id}/passkeys: the user's passkeys, without their public keys (issue 13, behaviour PASSKEY-8). */
import { getUser } from '../../core/admin/users';
import { pathParameter } from '../../http/admin-endpoint';
import { passkeyView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';
import { adminHandler } from '../../wiring/admin-handler';
import { getPasskeyStore } from '../../wiring/passkeys';

export const handler = adminHandler(async (event) => {
  const user = await getUser(getAdminWithoutMail(), pathParameter(event, 'user_id'));
  const passkeys = await getPasskeyStore().listOf(user.id);
  return jsonResponse(200, { items: passkeys.map(passkeyView) });
});
