/**
 * POST /reset-password (behaviour RESET-5, RESET-7..RESET-9; form: password,
 * password_confirmation, and the token, from the link's cookie or, for a caller that read the
 * link itself, the `token` field): sets the new password once. Then the user's sessions are
 * deleted, their refresh token families revoked and a "password changed" mail sent
 * (core/account/password-change.ts). No session is started: the user signs in with the new
 * password, and the second factor still applies (ASVS 6.4.3). The completion page lists the
 * passkeys that still sign in and offers removing them all (reset-passkeys-remove.ts).
 */
import { recoveryLifetimeSeconds, resetPassword } from '../core/account/password-reset';
import { InvalidGrantError, InvalidRequestError } from '../core/errors';
import { resetPasswordForm, secretField } from '../http/account-forms';
import { parseBody } from '../http/body';
import { httpHandler } from '../wiring/handler';
import { htmlResponse, wantsHtml } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { clearedResetLinkCookie, readResetLinkCookie, recoveryCookie } from '../http/reset-cookies';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { passwordChangedPage, resetLinkDeadPage, resetPasswordPage } from '../presentation/views/account';
import { getPasswordReset } from '../wiring/account';

const deadLink = (reason: string) => new InvalidGrantError('This link has expired or was already used. Ask for a new one.', reason);

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    const issuer = container.config.baseUrl;
    assertSameOrigin(event, issuer);
    const fields = parseBody(event, ['form']) as Record<string, string>;
    // A token in the form wins: only a caller that read the link itself puts it there.
    const posted = fields.token !== undefined;
    const token = secretField.safeParse(posted ? fields.token : readResetLinkCookie(event, issuer));
    const cleared = { 'Set-Cookie': clearedResetLinkCookie(issuer) };
    if (!token.success) {
      if (!wantsHtml(event)) throw deadLink('malformed token');
      return htmlResponse(400, resetLinkDeadPage(), { headers: cleared });
    }
    let form: ReturnType<typeof validate<typeof resetPasswordForm>>;
    try {
      form = validate(resetPasswordForm, fields);
    } catch (error) {
      // A password the rules refuse: the same link, the form again, the reason shown.
      if (!(error instanceof InvalidRequestError) || !wantsHtml(event)) throw error;
      return htmlResponse(400, resetPasswordPage({ ...(posted ? { token: token.data } : {}), error: error.description }));
    }
    const done = await resetPassword(getPasswordReset(), token.data, form.password);
    if (!done) {
      container.log.info('password reset refused', { reason: 'dead link' });
      if (!wantsHtml(event)) throw deadLink('dead link');
      return htmlResponse(400, resetLinkDeadPage(), { headers: cleared });
    }
    container.log.info('password reset', {
      userId: done.user.id,
      passkeys: done.passkeys?.length ?? 'unread',
      apiKeys: done.apiKeys?.length ?? 'unread',
    });
    if (!wantsHtml(event)) return jsonResponse(200, { password_changed: true });
    // Behaviour RESET-9: the link's cookie goes, the completion's proof comes, in one answer.
    return {
      ...htmlResponse(200, passwordChangedPage({ passkeys: done.passkeys, apiKeys: done.apiKeys })),
      multiValueHeaders: {
        'Set-Cookie': [clearedResetLinkCookie(issuer), recoveryCookie(issuer, done.recovery, recoveryLifetimeSeconds)],
      },
    };
  }),
);
