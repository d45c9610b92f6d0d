/**
 * The one template of each notice kind (lambdas/core/notices.ts). Keyed by kind, so a kind
 * without a template does not compile. A function's notifier takes only the templates of the
 * mails it sends (lambdas/wiring/mail.ts); this registry is the list that proves each kind has one.
 */
import type { NoticeKind } from '../../core/notices';
import type { Templates } from './render';
import { apiKeyCreatedMail } from './templates/api-key-created';
import { clientSecretRotatedMail } from './templates/client-secret-rotated';
import { emailConfirmationCodeMail } from './templates/email-confirmation-code';
import { passkeyAddedMail } from './templates/passkey-added';
import { passkeyRemovedMail } from './templates/passkey-removed';
import { passwordChangedMail } from './templates/password-changed';
import { passwordResetLinkMail } from './templates/password-reset-link';
import { removedAfterResetMail } from './templates/removed-after-reset';
import { signInCodeMail } from './templates/sign-in-code';
import { wrongPasswordsMail } from './templates/wrong-passwords';

export const templates: Templates<NoticeKind> = {
  'sign-in-code': signInCodeMail,
  'email-confirmation-code': emailConfirmationCodeMail,
  'password-reset-link': passwordResetLinkMail,
  'password-changed': passwordChangedMail,
  'removed-after-reset': removedAfterResetMail,
  'wrong-passwords': wrongPasswordsMail,
  'passkey-added': passkeyAddedMail,
  'passkey-removed': passkeyRemovedMail,
  'api-key-created': apiKeyCreatedMail,
  'client-secret-rotated': clientSecretRotatedMail,
};
