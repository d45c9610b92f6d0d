/** Behaviour RESET-1..RESET-3: the link, how long it works, and that ignoring it changes nothing. */
import type { PasswordResetLinkNotice } from '../../../core/notices';
import type { MailText } from '../branded';

export const passwordResetLinkMail = ({ url, expiresInMinutes }: PasswordResetLinkNotice): MailText => ({
  subject: 'Reset your password',
  text: `Someone asked to reset the password of your account. To choose a new one, open:\n\n${url}\n\nThe link works once, for ${expiresInMinutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.\n`,
});
