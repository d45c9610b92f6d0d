/**
 * POST /api/users/email-verification/verify (behaviour VERIFY-4, VERIFY-5): `{ "code": "123456" }`
 * (JSON or form) → 200 `{ email_verified: true }`. Every refusal of a well-formed code is one
 * 400 invalid_grant: wrong, expired, used, out of attempts, or sent to an address the user no
 * longer has.
 */
import { confirmVerification } from '../core/account/email-verification';
import { verifyEmailBody } from '../http/account-forms';
import { requireAccountUser } from '../http/account-caller';
import { parseBody } from '../http/body';
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';
import { validate } from '../http/validate';
import { getAccountCaller, getEmailConfirmation } from '../wiring/account';

export const handler = httpHandler(async (event, container) => {
  const user = await requireAccountUser(event, container, getAccountCaller());
  const { code } = validate(verifyEmailBody, parseBody(event, ['json', 'form']));
  await confirmVerification(getEmailConfirmation(), user, code);
  container.log.info('email verified', { userId: user.id });
  return jsonResponse(200, { email_verified: true });
});
