/**
 * POST /reset-password/passkeys/remove (behaviour RESET-9): the reset completion's
 * "Remove all passkeys". The reset link is used up by then, so this step is authenticated by the
 * recovery proof the completion put in its own cookie (10 minutes, single use, bound to the
 * password the reset set) and, as every account form, by the same-origin check (behaviour
 * SIGNIN-5); the cookie is SameSite=Strict besides. Every passkey the user has goes, every
 * self-service API key is revoked (behaviour RESET-13), every session and refresh family ends
 * again, and the user is mailed the list.
 */
import { removeAllAfterReset } from '../core/account/password-reset';
import { InvalidGrantError } from '../core/errors';
import { secretField } from '../http/account-forms';
import { parseBody } from '../http/body';
import { htmlResponse, wantsHtml } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { clearedRecoveryCookie, readRecoveryCookie } from '../http/reset-cookies';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { passkeysRemovedPage, recoveryExpiredPage } from '../presentation/views/account';
import { resetPasskeysRemoveForm } from '../http/account-forms';
import { passkeyLabel } from '../core/account/passkeys';
import { httpHandler } from '../wiring/handler';
import { getPasswordReset } from '../wiring/account';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    const issuer = container.config.baseUrl;
    assertSameOrigin(event, issuer);
    validate(resetPasskeysRemoveForm, parseBody(event, ['form']));
    const cleared = { 'Set-Cookie': clearedRecoveryCookie(issuer) };
    const proof = secretField.safeParse(readRecoveryCookie(event, issuer));
    const done = proof.success ? await removeAllAfterReset(getPasswordReset(), proof.data) : undefined;
    if (!done) {
      container.log.info('passkey removal after reset refused', { reason: proof.success ? 'proof used, expired or outlived' : 'no proof' });
      if (!wantsHtml(event)) {
        throw new InvalidGrantError(
          'This step works once, within 10 minutes of the password change. Sign in and use the passkeys page.',
          'no live recovery proof',
        );
      }
      return htmlResponse(400, recoveryExpiredPage(), { headers: cleared });
    }
    container.log.info('passkeys removed after reset', {
      userId: done.user.id,
      removed: done.removed.length,
      revokedApiKeys: done.revokedKeys.map((key) => key.keyId),
    });
    if (!wantsHtml(event)) {
      return jsonResponse(
        200,
        { removed_passkeys: done.removed.map(passkeyLabel), revoked_api_keys: done.revokedKeys.map((key) => key.keyId) },
        { headers: cleared },
      );
    }
    return htmlResponse(200, passkeysRemovedPage({ removed: done.removed, revokedKeys: done.revokedKeys }), { headers: cleared });
  }),
);
