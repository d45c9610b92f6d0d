/**
 * POST /api/admin/users/{user_id}/password-reset (behaviour ADMIN-17; issue 12; ASVS 6.4.6): mails the user a
 * reset link. The admin never sets or sees the password this way, and the response carries
 * no link. 202 `{ expires_in }`; 400 for a user without an address; 404 for no such user.
 */
import { sendResetLink } from '../../core/account/password-reset';
import { getUser } from '../../core/admin/users';
import { pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { recordAdminChange } from '../../wiring/audit';
import { jsonResponse } from '../../http/response';
import { getPasswordReset } from '../../wiring/account';
import { getAdmin } from '../../wiring/admin';

export const handler = adminHandler(async (event, container, caller) => {
  const user = await getUser(getAdmin(), pathParameter(event, 'user_id'));
  const { expiresIn } = await sendResetLink(getPasswordReset(), user);
  await recordAdminChange(caller, { type: 'user.password_reset_send', userId: user.id });
  container.log.info('reset link sent by an admin', { userId: user.id });
  return jsonResponse(202, { expires_in: expiresIn });
});
