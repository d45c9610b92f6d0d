/** POST /api/users/passkey/remove: removes one of the user's passkeys and mails them (behaviour PASSKEY-2). */
import { removePasskey } from '../core/account/passkeys';
import { accountPaths } from '../core/account/paths';
import { passkeyRemoveForm } from '../http/passkey-forms';
import { redirect } from '../http/redirect';
import { withErrorPages } from '../presentation/page-errors';
import { passkeyFormPost, passkeysPageResponse } from '../presentation/passkey-pages';
import { httpHandler } from '../wiring/handler';
import { getPasskeySessionReaders, getPasskeys } from '../wiring/passkeys';

export const handler = httpHandler(
  withErrorPages((event, container) =>
    passkeyFormPost(event, container, getPasskeySessionReaders(), passkeyRemoveForm, async (form, user) => {
      const deps = getPasskeys();
      if (!(await removePasskey(deps, user, form.credential_id))) {
        return passkeysPageResponse(container, deps, user, 404, { error: 'That passkey is not (or no longer) on your account.' });
      }
      container.log.info('passkey removed', { userId: user.id });
      return redirect(`${accountPaths.passkeys}?done=removed`);
    }),
  ),
);
