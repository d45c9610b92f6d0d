/** Behaviour MFA-4: the code that proves the user reads mail at the address. */
import type { EmailConfirmationCodeNotice } from '../../../core/notices';
import type { MailText } from '../branded';

export const emailConfirmationCodeMail = ({ code, expiresInMinutes }: EmailConfirmationCodeNotice): MailText => ({
  subject: 'Confirm your email address',
  text: `Your confirmation code is ${code}.\n\nIt works once, for ${expiresInMinutes} minutes. If you did not ask for it, ignore this mail.\n`,
});
