/**
 * Behaviour RESET-10: the mail says exactly what happened: how the password changed, that every
 * session and refresh token ended, and which passkeys and API keys still sign in (named, with how
 * to remove them), since one an intruder added survives a password change.
 */
import { utcMinute } from '../../../core/account/passkeys';
import type { PasswordChangedNotice } from '../../../core/notices';
import type { MailText } from '../branded';
import { apiKeyLine, passkeyLine } from '../lists';

export function passwordChangedMail({ way, at, passkeys, apiKeys, links }: PasswordChangedNotice): MailText {
  const how = way === 'reset-link' ? 'with a reset link mailed to this address' : 'by an administrator';
  // The page after a reset offers "Remove all" for the RESET-9 window (recoveryLifetimeSeconds).
  const passkeyPart =
    passkeys === undefined
      ? `Passkeys are not ended by a password change: any passkey on your account still signs in without the password. Check them at ${links.passkeys} (after signing in) and remove any you do not recognise.`
      : passkeys.length === 0
        ? 'No passkey can sign in to your account.'
        : `These passkeys can still sign in to your account without the password, as a password change does not end them:\n${passkeys.map(passkeyLine).join('\n')}\n\nTo remove one, sign in, open ${links.passkeys} and press Remove next to it, or ask your administrator to remove it.${
            way === 'reset-link' ? ' The page shown after the reset offers removing them all at once, for 10 minutes.' : ''
          }`;
  const keysPart =
    apiKeys === undefined
      ? 'API keys you created in an application are not ended by a password change either: any such key still gets access tokens that act as you. Check them in the applications you use, and revoke any you do not recognise.'
      : apiKeys.length === 0
        ? 'No API key you created in an application can get tokens for your account.'
        : `These API keys, created in an application with your account, still get access tokens that act as you, as a password change does not end them:\n${apiKeys.map(apiKeyLine).join('\n')}\n\nTo revoke one, sign in to the application named and revoke the key there, or ask your administrator to revoke it by its key id.${
            way === 'reset-link'
              ? ' The page shown after the reset offers revoking them all at once, with the passkeys, for 10 minutes.'
              : ''
          }`;
  return {
    subject: 'Your password was changed',
    text: `The password of your account was just changed ${how}, on ${utcMinute(at)}.

Every session signed in to your account was ended, on every device, and the refresh tokens of every application were revoked: they must sign in again, with the new password. Reset links sent before the change no longer work.

${passkeyPart}

${keysPart}

If you did not change your password, reset it at once at ${links.forgotPassword}, remove any passkey and revoke any API key you do not recognise, and tell your administrator.
`,
  };
}
