/**
 * Behaviour PWFAIL-5: what happened, what still works and what to do. Nothing an attacker could
 * use: no address, count, time of an attempt or way to lift the pause, and no link but the public
 * forgot-password page.
 */
import type { WrongPasswordsNotice } from '../../../core/notices';
import type { MailText } from '../branded';

export function wrongPasswordsMail({ pausedUntilEpoch, forgotPasswordUrl }: WrongPasswordsNotice): MailText {
  const until = new Date(pausedUntilEpoch * 1000).toUTCString().replace(/:00 GMT$/, ' UTC');
  return {
    subject: 'Wrong passwords were entered for your account',
    text: `Someone entered a wrong password for your account many times in a row. None of those attempts signed in.

To slow them down, signing in with a password is paused until ${until} for browsers that have not signed in to your account before. Browsers where you have signed in before, and your passkeys, still work.

If this was you: wait until then, or set a new password at ${forgotPasswordUrl}

If it was not you: nothing is needed now. If your password is short or you use it elsewhere too, set a new one at the same address, and tell your administrator.
`,
  };
}
