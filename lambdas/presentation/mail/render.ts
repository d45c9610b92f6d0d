/** A notice as the mail that tells it: its template's words, branded (behaviour SITE-4). */
import type { Notice } from '../../core/notices';
import type { Mailer, Notifier } from '../../core/ports';
import type { Brand } from '../html';
import { type BrandedMail, brandedMail, type MailText } from './branded';
import { templates } from './templates';

export function render(notice: Notice, brand: Brand): BrandedMail {
  // The template of the notice's own kind, which takes exactly this notice (TypeScript cannot follow the correlation).
  const template = templates[notice.kind] as (notice: Notice) => MailText;
  return brandedMail(template(notice), brand);
}

/** The notifier over a mailer: each notice rendered with the title and logo as they are when it is sent. */
export function mailNotifier(mailer: Mailer, brand: () => Promise<Brand>): Notifier {
  return { notify: async (to, notice) => mailer.send({ to, ...render(notice, await brand()) }) };
}
