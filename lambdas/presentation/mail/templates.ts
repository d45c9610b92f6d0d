/**
 * The one template of each notice kind (lambdas/core/notices.ts). Keyed by kind, so a kind
 * without a template does not compile.
 */
import type { NoticeKind, NoticeOf } from '../../core/notices';
import type { MailText } from './branded';
import { apiKeyCreatedMail } from './templates/api-key-created';
import { emailConfirmationCodeMail } from './templates/email-confirmation-code';
import { passkeyAddedMail } from './templates/passkey-added';
import { passkeyRemovedMail } from './templates/passkey-removed';
import { passwordChangedMail } from './templates/password-changed';
import { passwordResetLinkMail } from './templates/password-reset-link';
import { removedAfterResetMail } from './templates/removed-after-reset';
import { signInCodeMail } from './templates/sign-in-code';
import { wrongPasswordsMail } from './templates/wrong-passwords';

export type Template<K extends NoticeKind> = (notice: NoticeOf<K>) => MailText;

export const templates: { readonly [K in NoticeKind]: Template<K> } = {
  'sign-in-code': signInCodeMail,
  'email-confirmation-code': emailConfirmationCodeMail,
  'password-reset-link': passwordResetLinkMail,
  'password-changed': passwordChangedMail,
  'removed-after-reset': removedAfterResetMail,
  'wrong-passwords': wrongPasswordsMail,
  'passkey-added': passkeyAddedMail,
  'passkey-removed': passkeyRemovedMail,
  'api-key-created': apiKeyCreatedMail,
};
