/**
 * GET /reset-password?token=… (behaviour RESET-4, issue 12): the page of a mailed link. It only looks
 * the link up: mail scanners open links before the user does, so a GET must not use it up.
 * A dead link (expired, used, replaced by a newer one, or outlived by a password or address
 * change) gets a page offering a new one.
 */
import { findResetLink } from '../core/account/password-reset';
import { resetTokenQuery } from '../http/account-forms';
import { httpHandler } from '../wiring/handler';
import { InvalidGrantError } from '../core/errors';
import { htmlResponse, wantsHtml } from '../http/html';
import { resetLinkDeadPage, resetPasswordPage } from '../http/views/account';
import { getPasswordReset } from '../wiring/account';
import { getBrand } from '../wiring/site';

export const handler = httpHandler(async (event, container) => {
  const query = resetTokenQuery.safeParse(event.queryStringParameters ?? {});
  const found = query.success ? await findResetLink(getPasswordReset(), query.data.token) : undefined;
  if (!found) {
    const reason = query.success ? 'dead link' : 'malformed token';
    container.log.info('reset link refused', { reason });
    // A caller that did not ask for a page (a tool, a scanner) gets the OAuth error shape.
    if (!wantsHtml(event)) throw new InvalidGrantError('This link has expired or was already used. Ask for a new one.', reason);
    return htmlResponse(400, resetLinkDeadPage(), { brand: await getBrand() });
  }
  return htmlResponse(200, resetPasswordPage({ token: query.data!.token }), { brand: await getBrand() });
});
