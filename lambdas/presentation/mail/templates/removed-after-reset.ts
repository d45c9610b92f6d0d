/** Behaviour PASSKEY-12, RESET-9, RESET-13: one mail naming every passkey removed and API key revoked. */
import { utcMinute } from '../../../core/account/passkeys';
import type { RemovedAfterResetNotice } from '../../../core/notices';
import type { MailText } from '../branded';
import { apiKeyLine, passkeyLine } from '../lists';

export function removedAfterResetMail({ at, removedPasskeys, revokedKeys, links }: RemovedAfterResetNotice): MailText {
  const when = utcMinute(at);
  const what =
    removedPasskeys.length === 0
      ? `Your account had no passkey left to remove on ${when}.`
      : `Every passkey of your account was removed on ${when}:\n${removedPasskeys.map(passkeyLine).join('\n')}\n\nThey no longer sign you in, and every session was ended again.`;
  const keys =
    revokedKeys.length === 0
      ? 'No API key created in an application with your account was left to revoke.'
      : `Every API key created in an application with your account was revoked:\n${revokedKeys.map(apiKeyLine).join('\n')}\n\nThey no longer get tokens; tokens they already got stay valid for at most one hour. Create new keys in the applications that need them.`;
  return {
    subject:
      revokedKeys.length === 0 ? 'The passkeys of your account were removed' : 'The passkeys and API keys of your account were removed',
    text: `After your password was reset, you asked on the page shown after the reset to remove every passkey and revoke every API key of your account.

${what}

${keys}

To add your own passkeys again, sign in with your new password and open ${links.passkeys}. If you did not do this, reset your password at ${links.forgotPassword} and tell your administrator.
`,
  };
}
