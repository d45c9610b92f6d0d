/**
 * The notifiers of a container: each notice worded by its template (lambdas/presentation/mail)
 * and mailed. With MAIL_OUTBOX_DIR set (the local server sets `<DATA_DIR>/outbox`) mail is
 * written there as files; otherwise it goes through SES. Like the other wiring modules, this is
 * where the environment is read.
 */
import { createOutboxMailer } from '../adapters/outbox-mailer';
import { createSesMailer } from '../adapters/ses-mailer';
import type { NoticeKind } from '../core/notices';
import type { Mailer, Notifier } from '../core/ports';
import { mailNotifier, type Templates } from '../presentation/mail/render';
import { awsClientSettings } from './aws';
import { getContainer, perContainer } from './container';
import { getBrand } from './site';

const getMailer = /* @__PURE__ */ perContainer((env): Mailer => {
  const { config, clock } = getContainer();
  const outbox = env.MAIL_OUTBOX_DIR?.trim();
  return outbox ? createOutboxMailer(outbox, config.mailFrom, () => clock.now()) : createSesMailer(config.mailFrom, awsClientSettings(env));
});

/**
 * A notifier of the kinds `templates` words, given by the wiring of the use case that sends them:
 * a function bundles the templates of its own mails only. The site's title and logo are read at
 * each send (behaviour SITE-4); every mail-sending row reads the main table.
 */
export const getNotifier = <K extends NoticeKind>(templates: Templates<K>): Notifier<K> => mailNotifier(getMailer(), getBrand, templates);
