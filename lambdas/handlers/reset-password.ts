/**
 * POST /reset-password (behaviour RESET-5, RESET-7; issue 12; form: token, password,
 * password_confirmation): sets the new password once. Then the user's sessions are deleted,
 * their refresh token families revoked and a "password changed" mail sent
 * (core/account/password-change.ts). No session is started: the user signs in with the new
 * password, and the second factor still applies (ASVS 6.4.3).
 */
import { resetPassword } from '../core/account/password-reset';
import { InvalidGrantError, InvalidRequestError } from '../core/errors';
import { resetPasswordForm, secretField } from '../http/account-forms';
import { parseBody } from '../http/body';
import { httpHandler } from '../wiring/handler';
import { htmlResponse, wantsHtml } from '../http/html';
import { withErrorPages } from '../http/page-errors';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { passwordChangedPage, resetLinkDeadPage, resetPasswordPage } from '../http/views/account';
import { getPasswordReset } from '../wiring/account';

const deadLink = (reason: string) => new InvalidGrantError('This link has expired or was already used. Ask for a new one.', reason);

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const fields = parseBody(event, ['form']) as Record<string, string>;
    const token = secretField.safeParse(fields.token);
    if (!token.success) {
      if (!wantsHtml(event)) throw deadLink('malformed token');
      return htmlResponse(400, resetLinkDeadPage());
    }
    let form: ReturnType<typeof validate<typeof resetPasswordForm>>;
    try {
      form = validate(resetPasswordForm, fields);
    } catch (error) {
      // A password the rules refuse: the same link, the form again, the reason shown.
      if (!(error instanceof InvalidRequestError) || !wantsHtml(event)) throw error;
      return htmlResponse(400, resetPasswordPage({ token: token.data, error: error.description }));
    }
    if (!(await resetPassword(getPasswordReset(), form.token, form.password))) {
      container.log.info('password reset refused', { reason: 'dead link' });
      if (!wantsHtml(event)) throw deadLink('dead link');
      return htmlResponse(400, resetLinkDeadPage());
    }
    container.log.info('password reset');
    return wantsHtml(event) ? htmlResponse(200, passwordChangedPage()) : jsonResponse(200, { password_changed: true });
  }),
);
