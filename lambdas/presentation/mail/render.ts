/** A notice as the mail that tells it: its template's words, branded (behaviour SITE-4). */
import type { NoticeKind, NoticeOf } from '../../core/notices';
import type { Mailer, Notifier } from '../../core/ports';
import type { Brand } from '../html';
import { type BrandedMail, brandedMail, type MailText } from './branded';

export type Template<K extends NoticeKind> = (notice: NoticeOf<K>) => MailText;

/**
 * One template for each of the kinds `K`. A notifier holds the templates of the mails its use case
 * sends and no others, so a function bundles only the words it may mail (templates.ts has them all).
 */
export type Templates<K extends NoticeKind> = { readonly [P in K]: Template<P> };

export function render<K extends NoticeKind>(templates: Templates<K>, notice: NoticeOf<K>, brand: Brand): BrandedMail {
  // The template of the notice's own kind, which takes exactly this notice (TypeScript cannot follow the correlation).
  const template = templates[notice.kind as K] as (notice: NoticeOf<K>) => MailText;
  return brandedMail(template(notice), brand);
}

/** The notifier over a mailer: each notice rendered with the title and logo as they are when it is sent. */
export function mailNotifier<K extends NoticeKind>(mailer: Mailer, brand: () => Promise<Brand>, templates: Templates<K>): Notifier<K> {
  return { notify: async (to, notice) => mailer.send({ to, ...render(templates, notice, await brand()) }) };
}
