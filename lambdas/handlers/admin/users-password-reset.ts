/**
 * POST /api/admin/users/{user_id}/password-reset (behaviour ADMIN-17; ASVS 6.4.6): mails the user a
 * reset link. The admin never sets or sees the password this way, and the response carries
 * no link. 202 `{ expires_in }`; 400 for a user without an address; 404 for no such user.
 */
import { sendPasswordResetLink } from '../../core/admin/user-credentials';
import { pathParameter } from '../../http/admin-endpoint';
import { adminActorOf } from '../../http/admin-caller';
import { jsonResponse } from '../../http/response';
import { getPasswordReset } from '../../wiring/account';
import { getAdmin } from '../../wiring/admin';
import { adminHandler } from '../../wiring/admin-handler';

export const handler = adminHandler(async (event, container, caller) => {
  const { user, expiresIn } = await sendPasswordResetLink(
    { ...getAdmin(), passwordReset: getPasswordReset() },
    adminActorOf(caller),
    pathParameter(event, 'user_id'),
  );
  container.log.info('reset link sent by an admin', { userId: user.id });
  return jsonResponse(202, { expires_in: expiresIn });
});
