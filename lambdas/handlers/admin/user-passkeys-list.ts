/** GET /api/admin/users/{user_id}/passkeys: the user's passkeys, without their public keys (behaviour PASSKEY-8). */
import { listUserPasskeys } from '../../core/admin/user-credentials';
import { pathParameter } from '../../http/admin-endpoint';
import { jsonResponse } from '../../http/response';
import { passkeyView } from '../../presentation/admin-views';
import { getAdminWithoutMail } from '../../wiring/admin';
import { adminHandler } from '../../wiring/admin-handler';

export const handler = adminHandler(async (event) => {
  const passkeys = await listUserPasskeys(getAdminWithoutMail(), pathParameter(event, 'user_id'));
  return jsonResponse(200, { items: passkeys.map(passkeyView) });
});
