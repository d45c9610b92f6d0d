/**
 * POST /api/users/passkey/verify (spec 4.10): the registration response of "Add a passkey"
 * (behaviour PASSKEY-2, PASSKEY-4, PASSKEY-5). One of the two functions that bundle
 * @simplewebauthn/server (loaded on first use): it checks the attestation's origin, RP ID hash, user-verified flag
 * and the challenge; attestation statements are not asked for (attestation `none`).
 */
import { defaultPasskeyName, finishRegistration } from '../core/account/passkeys';
import { accountPaths } from '../core/account/paths';
import { header } from '../http/body';
import { passkeyRegisterForm } from '../http/passkey-forms';
import { redirect } from '../http/redirect';
import { withErrorPages } from '../presentation/page-errors';
import { passkeyFormPost, passkeysPageResponse, signInAgain } from '../presentation/passkey-pages';
import { httpHandler } from '../wiring/handler';
import { getPasskeyAdding, getPasskeySessionReaders } from '../wiring/passkeys';
import { getPasskeyVerifier } from '../wiring/webauthn';

export const handler = httpHandler(
  withErrorPages((event, container) =>
    passkeyFormPost(event, container, getPasskeySessionReaders(), passkeyRegisterForm, async (form, user) => {
      const deps = getPasskeyAdding();
      const name = form.name || defaultPasskeyName(header(event, 'user-agent'));
      const outcome = await finishRegistration(deps, getPasskeyVerifier(), user, form.credential, name);
      // Behaviour PASSKEY-14: the session ended while the passkey was being added (a password change,
      // or the reset's "Remove all passkeys"): nothing was stored, and only a new sign-in may add one.
      if (outcome.kind === 'outdated') {
        container.log.info('passkey registration refused', { userId: user.id, reason: outcome.reason });
        return signInAgain();
      }
      if (outcome.kind === 'refused') {
        container.log.info('passkey registration refused', { userId: user.id, reason: outcome.reason });
        return passkeysPageResponse(container, deps, user, 400, { error: 'The passkey was not added. Try again.' });
      }
      container.log.info('passkey added', { userId: user.id });
      return redirect(`${accountPaths.passkeys}?done=added`);
    }),
  ),
);
