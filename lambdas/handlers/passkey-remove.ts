/** POST /api/users/passkey/remove: removes one of the user's passkeys and mails them (behaviour PASSKEY-2). */
import { removePasskey } from '../core/account/passkeys';
import { accountPaths } from '../core/account/paths';
import { parseBody } from '../http/body';
import { passkeyRemoveForm } from '../http/passkey-forms';
import { passkeysPageResponse, recentlySignedInUser, signInAgain } from '../presentation/passkey-pages';
import { withErrorPages } from '../presentation/page-errors';
import { redirect } from '../http/redirect';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { httpHandler } from '../wiring/handler';
import { getPasskeySessionReaders, getPasskeys } from '../wiring/passkeys';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    assertSameOrigin(event, container.config.baseUrl);
    const form = validate(passkeyRemoveForm, parseBody(event, ['form']));
    const deps = getPasskeys();
    const user = await recentlySignedInUser(event, container, getPasskeySessionReaders());
    if (!user) return signInAgain();
    if (!(await removePasskey(deps, user, form.credential_id))) {
      return passkeysPageResponse(container, deps, user, 404, { error: 'That passkey is not (or no longer) on your account.' });
    }
    container.log.info('passkey removed', { userId: user.id });
    return redirect(`${accountPaths.passkeys}?done=removed`);
  }),
);
