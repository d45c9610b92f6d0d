/** Behaviour PASSKEY-12: the name, when, and how to remove it. */
import { passkeyLabel, utcMinute } from '../../../core/account/passkeys';
import type { PasskeyAddedNotice } from '../../../core/notices';
import type { MailText } from '../branded';

export const passkeyAddedMail = ({ passkey, passkeysPageUrl }: PasskeyAddedNotice): MailText => ({
  subject: 'A passkey was added to your account',
  text: `A passkey named "${passkeyLabel(passkey)}" was added to your account on ${utcMinute(passkey.createdAt)}. It can now sign in to your account without your password and without a mailed code.

If you did not add it, remove it at once: sign in at ${passkeysPageUrl} and press Remove next to "${passkeyLabel(passkey)}" (or ask your administrator to remove it), then reset your password and tell your administrator.
`,
});
