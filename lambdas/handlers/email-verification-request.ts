/**
 * POST /api/users/email-verification/request (behaviour VERIFY-2, VERIFY-3): mails a 6-digit code to
 * the caller's address. 202 `{ expires_in }` when sent; 200 `{ email_verified: true }` and no
 * mail when already verified; 400 and nothing written for a user without an address; 429 when
 * a code was sent less than a minute ago or five this hour. Any body is ignored.
 */
import { requestVerification } from '../core/account/email-verification';
import { requireAccountUser } from '../http/account-caller';
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';
import { getAccountCaller, getEmailVerification } from '../wiring/account';

export const handler = httpHandler(async (event, container) => {
  const user = await requireAccountUser(event, container, getAccountCaller());
  const result = await requestVerification(getEmailVerification(), user);
  if (result.kind === 'already-verified') return jsonResponse(200, { email_verified: true });
  container.log.info('verification code sent', { userId: user.id });
  return jsonResponse(202, { email_verified: false, expires_in: result.expiresIn });
});
