/** Behaviour MFA-3: the second factor's code; its warning says what a code nobody asked for means. */
import type { SignInCodeNotice } from '../../../core/notices';
import type { MailText } from '../branded';

export const signInCodeMail = ({ code, expiresInMinutes }: SignInCodeNotice): MailText => ({
  subject: 'Your sign-in code',
  text: `Your sign-in code is ${code}.\n\nIt works once, for ${expiresInMinutes} minutes. Nobody from us will ever ask you for it.\nIf you did not just sign in, someone knows your password: reset it now.\n`,
});
