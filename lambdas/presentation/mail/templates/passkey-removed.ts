/** Behaviour PASSKEY-12: which passkey, when, and where to check the rest. */
import { passkeyLabel, utcMinute } from '../../../core/account/passkeys';
import type { PasskeyRemovedNotice } from '../../../core/notices';
import type { MailText } from '../branded';

export const passkeyRemovedMail = ({ passkey, at, passkeysPageUrl }: PasskeyRemovedNotice): MailText => ({
  subject: 'A passkey was removed from your account',
  text: `The passkey "${passkeyLabel(passkey)}" (added ${utcMinute(passkey.createdAt)}) was removed from your account on ${utcMinute(at)}; it no longer signs you in.

If you did not do this, change your password and tell your administrator. Your passkeys: ${passkeysPageUrl}
`,
});
